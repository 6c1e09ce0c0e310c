import type { WorkflowPreview } from '../../api/adminTypes';

/**
 * The live preview of a site's workflow rules, shaped for its tables: per rule how many of
 * the recent order ids it assigns (or why it cannot be used), per order id which workflow
 * and which rule (first match wins), the ids no rule assigns, and the workflows' counts.
 */

export interface PreviewRuleRow {
  index: number;
  /** "#1", "#2": rules are numbered as the editor lists them. */
  label: string;
  pattern: string;
  matched: number;
  error: string | null;
}

export interface PreviewOrderRow {
  /** Unique per row: an order id may come again (reused after a while). */
  key: string;
  orderId: string;
  workflow: string | null;
  ruleLabel: string | null;
  unassigned: boolean;
}

export interface PreviewTable {
  rules: PreviewRuleRow[];
  orders: PreviewOrderRow[];
  total: number;
  assigned: number;
  unassigned: number;
  /** Workflows by how many ids they get (most first, then by name). */
  workflows: Array<{ workflow: string; count: number }>;
  /** Whether any rule cannot be used (saving would be refused). */
  hasErrors: boolean;
}

export const ruleLabel = (index: number) => `#${index + 1}`;

export function previewTable(
  preview: WorkflowPreview,
  { unassignedOnly = false }: { unassignedOnly?: boolean } = {},
): PreviewTable {
  const rules = preview.rules.map(
    (rule): PreviewRuleRow => ({
      index: rule.index,
      label: ruleLabel(rule.index),
      pattern: rule.pattern,
      matched: rule.error ? 0 : rule.matched,
      error: rule.error ?? null,
    }),
  );
  const seen = new Map<string, number>();
  const all = preview.orders.map((order): PreviewOrderRow => {
    const workflow = order.workflow ?? null;
    const ruleIndex = order.ruleIndex ?? null;
    const occurrence = seen.get(order.orderId) ?? 0;
    seen.set(order.orderId, occurrence + 1);
    return {
      key: occurrence === 0 ? order.orderId : `${order.orderId}#${occurrence}`,
      orderId: order.orderId,
      workflow,
      ruleLabel: ruleIndex === null ? null : ruleLabel(ruleIndex),
      unassigned: workflow === null,
    };
  });
  const counts = new Map<string, number>();
  for (const row of all) {
    if (row.workflow !== null) {
      counts.set(row.workflow, (counts.get(row.workflow) ?? 0) + 1);
    }
  }
  const workflows = [...counts.entries()]
    .map(([workflow, count]) => ({ workflow, count }))
    .sort((a, b) => b.count - a.count || a.workflow.localeCompare(b.workflow));
  return {
    rules,
    orders: unassignedOnly ? all.filter((row) => row.unassigned) : all,
    total: all.length,
    assigned: preview.assigned,
    unassigned: preview.unassigned,
    workflows,
    hasErrors: rules.some((rule) => rule.error !== null),
  };
}

/** Rules as the editor holds them, as they are sent: trimmed, empty lines left out. */
export function rulesToSend(rules: readonly string[]): string[] {
  return rules.map((rule) => rule.trim()).filter((rule) => rule !== '');
}

/** Moves the rule at `index` one place up (-1) or down (+1); out of range: unchanged. */
export function moveRule<T>(rules: readonly T[], index: number, step: -1 | 1): T[] {
  const target = index + step;
  if (index < 0 || index >= rules.length || target < 0 || target >= rules.length) {
    return [...rules];
  }
  const next = [...rules];
  const [moved] = next.splice(index, 1);
  next.splice(target, 0, moved as T);
  return next;
}
