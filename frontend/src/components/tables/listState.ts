/**
 * State of a server-side paged, sorted and filtered list (error history, a workflow's
 * orders, failed actions). Pure, so the rules are unit-tested: a new sort or filter goes
 * back to page 1 (the old page number may not exist any more), the page never leaves
 * 1..pages, and clicking the sorted column again flips its direction.
 */

export interface ListState<F> {
  page: number;
  pageSize: number;
  /** Column id, `-` prefix for descending (the server's convention); null: its default. */
  sort: string | null;
  filters: F;
}

export type ListAction<F> =
  | { type: 'page'; page: number; pages: number }
  | { type: 'pageSize'; pageSize: number }
  | { type: 'sort'; column: string; defaultDescending?: boolean }
  | { type: 'filter'; filters: Partial<F> }
  | { type: 'reset'; filters: F };

export const PAGE_SIZES = [25, 50, 100] as const;

export function initialListState<F>(filters: F, pageSize = 50): ListState<F> {
  return { page: 1, pageSize, sort: null, filters };
}

export function clampPage(page: number, pages: number): number {
  const last = Math.max(1, pages);
  if (!Number.isFinite(page)) {
    return 1;
  }
  return Math.min(Math.max(1, Math.trunc(page)), last);
}

/** The column and direction of a sort string; `fallback` is the server's default. */
export function parseSort(
  sort: string | null,
  fallback: string,
): { column: string; descending: boolean } {
  const text = sort ?? fallback;
  return text.startsWith('-')
    ? { column: text.slice(1), descending: true }
    : { column: text, descending: false };
}

/**
 * Sort by `column`: the same column flips its direction; a new column starts descending
 * for numbers and times (largest, newest first) unless told otherwise.
 */
export function nextSort(
  current: string | null,
  column: string,
  { fallback, defaultDescending = true }: { fallback: string; defaultDescending?: boolean },
): string {
  const active = parseSort(current, fallback);
  if (active.column === column) {
    return active.descending ? column : `-${column}`;
  }
  return defaultDescending ? `-${column}` : column;
}

export function listReducer<F>(
  fallbackSort: string,
): (state: ListState<F>, action: ListAction<F>) => ListState<F> {
  return (state, action) => {
    switch (action.type) {
      case 'page':
        return { ...state, page: clampPage(action.page, action.pages) };
      case 'pageSize':
        return { ...state, pageSize: action.pageSize, page: 1 };
      case 'sort':
        return {
          ...state,
          page: 1,
          sort: nextSort(state.sort, action.column, {
            fallback: fallbackSort,
            defaultDescending: action.defaultDescending ?? true,
          }),
        };
      case 'filter':
        return { ...state, page: 1, filters: { ...state.filters, ...action.filters } };
      case 'reset':
        return initialListState(action.filters, state.pageSize);
    }
  };
}

/** "51–100 of 1,234" numbers for the pager; zero rows give 0–0. */
export function pageRange({
  page,
  pageSize,
  total,
}: {
  page: number;
  pageSize: number;
  total: number;
}): { first: number; last: number } {
  if (total <= 0) {
    return { first: 0, last: 0 };
  }
  const first = Math.min((page - 1) * pageSize + 1, total);
  return { first, last: Math.min(page * pageSize, total) };
}

/** The paging of a server-side list as the table shows and changes it. */
export interface Pager {
  page: number;
  pages: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  onPageSize: (pageSize: number) => void;
}

/** The pager of `list` with the page the server answered (`undefined` while loading). */
export function pagerOf<F>(
  list: ListState<F>,
  answer: { pages: number; total: number } | undefined,
  dispatch: (action: ListAction<F>) => void,
): Pager {
  const pages = answer?.pages ?? 1;
  return {
    page: list.page,
    pages,
    pageSize: list.pageSize,
    total: answer?.total ?? 0,
    onPage: (page) => dispatch({ type: 'page', page, pages }),
    onPageSize: (pageSize) => dispatch({ type: 'pageSize', pageSize }),
  };
}
