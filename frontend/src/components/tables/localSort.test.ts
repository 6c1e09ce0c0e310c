import { describe, expect, it } from 'vitest';
import { type LocalSortKeys, sortRows } from './localSort';

interface Row {
  name: string;
  count: number;
  rate: number | null;
}

const rows: Row[] = [
  { name: 'pick', count: 8, rate: 0.04 },
  { name: 'drop', count: 8, rate: 0.08 },
  { name: 'Charge', count: 2, rate: null },
  { name: 'cancel', count: 3, rate: 0 },
];
const keys: LocalSortKeys<Row> = {
  name: { value: (row) => row.name, ascendingFirst: true },
  count: { value: (row) => row.count },
  rate: { value: (row) => row.rate },
};
const names = (sorted: Row[]) => sorted.map((row) => row.name);

describe('sortRows', () => {
  it('sorts numbers both ways, ties in the order the server sent', () => {
    expect(names(sortRows(rows, '-count', keys))).toEqual(['pick', 'drop', 'cancel', 'Charge']);
    expect(names(sortRows(rows, 'count', keys))).toEqual(['Charge', 'cancel', 'pick', 'drop']);
  });

  it('puts rows without a value last, whichever the direction', () => {
    expect(names(sortRows(rows, 'rate', keys))).toEqual(['cancel', 'pick', 'drop', 'Charge']);
    expect(names(sortRows(rows, '-rate', keys))).toEqual(['drop', 'pick', 'cancel', 'Charge']);
  });

  it('sorts names as people read them, and leaves the rows alone for an unknown column', () => {
    expect(names(sortRows(rows, 'name', keys))).toEqual(['cancel', 'Charge', 'drop', 'pick']);
    expect(names(sortRows(rows, 'other', keys))).toEqual(names(rows));
    expect(names(rows)).toEqual(['pick', 'drop', 'Charge', 'cancel']); // not sorted in place
  });
});
