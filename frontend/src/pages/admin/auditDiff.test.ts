import { describe, expect, it } from 'vitest';
import { auditDiff, changedLines, flatten, formatValue } from './auditDiff';

describe('auditDiff', () => {
  it('a rename: one changed field, the others unchanged', () => {
    const lines = auditDiff(
      { id: 7, name: 'Nordlicht', siteCount: 2 },
      { id: 7, name: 'Nordlicht Logistik', siteCount: 2 },
    );
    expect(lines).toEqual([
      { path: 'id', before: '7', after: '7', kind: 'unchanged' },
      { path: 'name', before: 'Nordlicht', after: 'Nordlicht Logistik', kind: 'changed' },
      { path: 'siteCount', before: '2', after: '2', kind: 'unchanged' },
    ]);
    expect(changedLines(lines).map((line) => line.path)).toEqual(['name']);
  });

  it('a create is all added, a delete all removed', () => {
    expect(auditDiff(null, { name: 'A', role: 'customer' })).toEqual([
      { path: 'name', before: null, after: 'A', kind: 'added' },
      { path: 'role', before: null, after: 'customer', kind: 'added' },
    ]);
    expect(auditDiff({ name: 'A' }, undefined)).toEqual([
      { path: 'name', before: 'A', after: null, kind: 'removed' },
    ]);
  });

  it('nested shifts by index and field; rule lists as one value, a rule per line', () => {
    const before = {
      workflowRules: ['^(?P<workflow>A)-\\d+$'],
      shifts: [{ id: 3, name: 'Night', start: '22:00', end: '06:00', weekdays: [0, 1] }],
    };
    const after = {
      workflowRules: ['^(?P<workflow>A)-\\d+$', '^(?P<workflow>B)'],
      shifts: [
        { id: 3, name: 'Night', start: '21:00', end: '05:00', weekdays: [0, 1] },
        { id: 4, name: 'Weekend', start: '08:00', end: '16:00', weekdays: [5, 6] },
      ],
    };
    expect(changedLines(auditDiff(before, after))).toEqual([
      {
        path: 'workflowRules',
        before: '^(?P<workflow>A)-\\d+$',
        after: '^(?P<workflow>A)-\\d+$\n^(?P<workflow>B)',
        kind: 'changed',
      },
      { path: 'shifts[0].start', before: '22:00', after: '21:00', kind: 'changed' },
      { path: 'shifts[0].end', before: '06:00', after: '05:00', kind: 'changed' },
      { path: 'shifts[1].id', before: null, after: '4', kind: 'added' },
      { path: 'shifts[1].name', before: null, after: 'Weekend', kind: 'added' },
      { path: 'shifts[1].start', before: null, after: '08:00', kind: 'added' },
      { path: 'shifts[1].end', before: null, after: '16:00', kind: 'added' },
      { path: 'shifts[1].weekdays', before: null, after: '[5,6]', kind: 'added' },
    ]);
  });

  it('a field that disappears is removed; null is a value', () => {
    expect(auditDiff({ a: 1, b: null }, { b: 2 })).toEqual([
      { path: 'b', before: 'null', after: '2', kind: 'changed' },
      { path: 'a', before: '1', after: null, kind: 'removed' },
    ]);
  });
});

describe('flatten and formatValue', () => {
  it('paths of nested objects, empty objects kept as values', () => {
    expect([...flatten({ a: { b: { c: true } }, d: {} }).entries()]).toEqual([
      ['a.b.c', true],
      ['d', {}],
    ]);
    expect(formatValue('text')).toBe('text');
    expect(formatValue(false)).toBe('false');
    expect(formatValue(null)).toBe('null');
    expect(formatValue(['a', 'b'])).toBe('a\nb');
    expect(formatValue([1, 2])).toBe('[1,2]');
    expect(formatValue([])).toBe('[]');
  });

  it('writes stored instants as the page writes times; other text stays as it is', () => {
    const local = (iso: string) => `local ${iso.slice(11, 16)}`;
    const before = { expiresAt: '2026-03-02T08:00:00Z', name: '2026-03-02T08:00 shift' };
    const after = { expiresAt: '2026-04-01T09:30:00.250+02:00', name: '2026-03-02' };
    expect(auditDiff(before, after, local)).toEqual([
      { path: 'expiresAt', before: 'local 08:00', after: 'local 09:30', kind: 'changed' },
      { path: 'name', before: '2026-03-02T08:00 shift', after: '2026-03-02', kind: 'changed' },
    ]);
    // Without a format (and for the kind of change) the stored text counts.
    expect(auditDiff(before, before)[0]).toMatchObject({ before: '2026-03-02T08:00:00Z' });
  });
});
