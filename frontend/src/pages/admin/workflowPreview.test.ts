import { describe, expect, it } from 'vitest';
import type { WorkflowPreview } from '../../api/adminTypes';
import { moveRule, previewTable, rulesToSend } from './workflowPreview';

// Two rules over five order ids: the first assigns TRANSPORT_A twice, the second one
// PICK id; two ids stay unassigned; a third rule does not compile.
const PREVIEW: WorkflowPreview = {
  rules: [
    { index: 0, pattern: '^(?P<workflow>TRANSPORT_[A-Z])-\\d+$', matched: 2 },
    { index: 1, pattern: '^(?P<workflow>PICK)_', matched: 1 },
    { index: 2, pattern: '^(?P<workflow>[', matched: 0, error: 'unterminated character set' },
  ],
  orders: [
    { orderId: 'TRANSPORT_A-000123', workflow: 'TRANSPORT_A', ruleIndex: 0 },
    { orderId: 'misc-1', workflow: null },
    { orderId: 'PICK_17', workflow: 'PICK', ruleIndex: 1 },
    { orderId: 'TRANSPORT_A-000124', workflow: 'TRANSPORT_A', ruleIndex: 0 },
    { orderId: 'x' },
  ],
  assigned: 3,
  unassigned: 2,
};

describe('previewTable', () => {
  it('rules numbered from 1 with their counts or their error', () => {
    const table = previewTable(PREVIEW);
    expect(table.rules.map((rule) => [rule.label, rule.matched, rule.error])).toEqual([
      ['#1', 2, null],
      ['#2', 1, null],
      ['#3', 0, 'unterminated character set'],
    ]);
    expect(table.hasErrors).toBe(true);
  });

  it('every order id with its workflow and rule, unassigned ones marked, newest first kept', () => {
    const table = previewTable(PREVIEW);
    expect(table.orders.map(({ key, ...row }) => row)).toEqual([
      {
        orderId: 'TRANSPORT_A-000123',
        workflow: 'TRANSPORT_A',
        ruleLabel: '#1',
        unassigned: false,
      },
      { orderId: 'misc-1', workflow: null, ruleLabel: null, unassigned: true },
      { orderId: 'PICK_17', workflow: 'PICK', ruleLabel: '#2', unassigned: false },
      {
        orderId: 'TRANSPORT_A-000124',
        workflow: 'TRANSPORT_A',
        ruleLabel: '#1',
        unassigned: false,
      },
      { orderId: 'x', workflow: null, ruleLabel: null, unassigned: true },
    ]);
    expect([table.total, table.assigned, table.unassigned]).toEqual([5, 3, 2]);
    expect(table.workflows).toEqual([
      { workflow: 'TRANSPORT_A', count: 2 },
      { workflow: 'PICK', count: 1 },
    ]);
  });

  it('only the unassigned ids on request (the counts stay those of all ids)', () => {
    const table = previewTable(PREVIEW, { unassignedOnly: true });
    expect(table.orders.map((row) => row.orderId)).toEqual(['misc-1', 'x']);
    expect(table.total).toBe(5);
  });

  it('an order id that comes again gets its own row key', () => {
    const table = previewTable({
      ...PREVIEW,
      orders: [{ orderId: 'A-1' }, { orderId: 'A-1' }, { orderId: 'A-1' }],
    });
    expect(table.orders.map((row) => row.key)).toEqual(['A-1', 'A-1#1', 'A-1#2']);
  });

  it('no rule errors: saving is possible', () => {
    expect(previewTable({ ...PREVIEW, rules: PREVIEW.rules.slice(0, 2) }).hasErrors).toBe(false);
  });
});

describe('rule list editing', () => {
  it('moves a rule up and down, never out of the list', () => {
    expect(moveRule(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveRule(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveRule(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveRule(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('sends trimmed rules without empty lines', () => {
    expect(rulesToSend([' ^(?P<workflow>A) ', '', '  '])).toEqual(['^(?P<workflow>A)']);
  });
});
