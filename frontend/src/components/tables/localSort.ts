import { useState } from 'react';
import { nextSort, parseSort } from './listState';

/**
 * Sorting a short list the server sends whole (action types, error types) in the browser,
 * by the rules of the server's lists: the sorted column's header flips its direction, a new
 * column starts descending (numbers, times) or ascending (names); rows without a value come
 * last either way; ties keep the server's order.
 */

export type SortValue = number | string | null | undefined;

export interface LocalSortKey<T> {
  value: (row: T) => SortValue;
  /** A name: a new sort by it starts A to Z. */
  ascendingFirst?: boolean;
}

export type LocalSortKeys<T> = Record<string, LocalSortKey<T>>;

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === 'number' && typeof b === 'number') {
    return a - b;
  }
  return String(a).localeCompare(String(b));
}

const missing = (value: SortValue) =>
  value === null || value === undefined || (typeof value === 'number' && Number.isNaN(value));

/** `rows` in the order of `sort` (`-` prefix: descending); an unknown column keeps theirs. */
export function sortRows<T>(rows: readonly T[], sort: string, keys: LocalSortKeys<T>): T[] {
  const { column, descending } = parseSort(sort, sort);
  const key = keys[column];
  if (!key) {
    return [...rows];
  }
  const direction = descending ? -1 : 1;
  // Array.prototype.sort is stable: ties keep the server's order.
  return [...rows].sort((left, right) => {
    const a = key.value(left);
    const b = key.value(right);
    if (missing(a) || missing(b)) {
      return Number(missing(a)) - Number(missing(b));
    }
    return direction * compareValues(a, b);
  });
}

/** The rows in the chosen order, the sort in effect and the header's handler (`PagedTable`). */
export function useLocalSort<T>(
  rows: readonly T[] | undefined,
  keys: LocalSortKeys<T>,
  fallback: string,
): { rows: T[] | undefined; sort: string; onSort: (column: string) => void } {
  const [sort, setSort] = useState<string | null>(null);
  const effective = sort ?? fallback;
  // A few dozen rows at most: sorted on every render, no memo to keep in step with `keys`.
  const sorted = rows && sortRows(rows, effective, keys);
  const onSort = (column: string) =>
    setSort((current) =>
      nextSort(current, column, {
        fallback,
        defaultDescending: !keys[column]?.ascendingFirst,
      }),
    );
  return { rows: sorted, sort: effective, onSort };
}
