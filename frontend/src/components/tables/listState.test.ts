import { describe, expect, it } from 'vitest';
import {
  clampPage,
  initialListState,
  listReducer,
  nextSort,
  pageRange,
  pagerOf,
  parseSort,
} from './listState';

describe('list state (server-side paging, sorting, filters)', () => {
  const reduce = listReducer<{ level: string | null }>('-start');
  const start = initialListState({ level: null as string | null });

  it('starts on page 1 with the server default sort', () => {
    expect(start).toEqual({ page: 1, pageSize: 50, sort: null, filters: { level: null } });
    expect(parseSort(start.sort, '-start')).toEqual({ column: 'start', descending: true });
  });

  it('keeps the page inside 1..pages', () => {
    expect(reduce(start, { type: 'page', page: 3, pages: 5 }).page).toBe(3);
    expect(reduce(start, { type: 'page', page: 9, pages: 5 }).page).toBe(5);
    expect(reduce(start, { type: 'page', page: 0, pages: 5 }).page).toBe(1);
    expect(reduce(start, { type: 'page', page: 2, pages: 0 }).page).toBe(1);
    expect(clampPage(Number.NaN, 4)).toBe(1);
    expect(clampPage(2.7, 4)).toBe(2);
  });

  it('flips the direction of the sorted column and starts a new column descending', () => {
    expect(nextSort(null, 'start', { fallback: '-start' })).toBe('start');
    expect(nextSort('start', 'start', { fallback: '-start' })).toBe('-start');
    expect(nextSort('-start', 'duration', { fallback: '-start' })).toBe('-duration');
    expect(nextSort(null, 'vehicle', { fallback: '-start', defaultDescending: false })).toBe(
      'vehicle',
    );
  });

  it('goes back to page 1 on a new sort, filter or page size', () => {
    const onPage4 = reduce(start, { type: 'page', page: 4, pages: 10 });
    expect(reduce(onPage4, { type: 'sort', column: 'duration' })).toMatchObject({
      page: 1,
      sort: '-duration',
    });
    expect(reduce(onPage4, { type: 'filter', filters: { level: 'FATAL' } })).toMatchObject({
      page: 1,
      filters: { level: 'FATAL' },
    });
    expect(reduce(onPage4, { type: 'pageSize', pageSize: 100 })).toMatchObject({
      page: 1,
      pageSize: 100,
    });
  });

  it('reset drops sort and filters but keeps the page size', () => {
    const changed = reduce(
      reduce(reduce(start, { type: 'pageSize', pageSize: 25 }), { type: 'sort', column: 'level' }),
      { type: 'filter', filters: { level: 'WARNING' } },
    );
    expect(reduce(changed, { type: 'reset', filters: { level: null } })).toEqual({
      page: 1,
      pageSize: 25,
      sort: null,
      filters: { level: null },
    });
  });

  it('numbers the rows shown on a page', () => {
    expect(pageRange({ page: 2, pageSize: 50, total: 120 })).toEqual({ first: 51, last: 100 });
    expect(pageRange({ page: 3, pageSize: 50, total: 120 })).toEqual({ first: 101, last: 120 });
    expect(pageRange({ page: 1, pageSize: 50, total: 0 })).toEqual({ first: 0, last: 0 });
  });

  it('pages through the answer it was given, one page while loading', () => {
    const actions: unknown[] = [];
    const list = { ...initialListState({ level: null }), page: 2 };
    const pager = pagerOf(list, { pages: 4, total: 180 }, (action) => actions.push(action));
    expect(pager).toMatchObject({ page: 2, pages: 4, pageSize: 50, total: 180 });
    pager.onPage(3);
    pager.onPageSize(25);
    expect(actions).toEqual([
      { type: 'page', page: 3, pages: 4 },
      { type: 'pageSize', pageSize: 25 },
    ]);
    expect(pagerOf(list, undefined, () => undefined)).toMatchObject({ pages: 1, total: 0 });
  });
});
