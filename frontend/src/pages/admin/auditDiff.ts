/**
 * Before and after of an audit entry as a readable list of changed fields: nested objects
 * and lists are flattened into paths ("shifts[2].end"), each path with its value before and
 * after and whether it was added, removed, changed or stayed the same.
 */

export type DiffKind = 'added' | 'removed' | 'changed' | 'unchanged';

export interface DiffLine {
  path: string;
  before: string | null;
  after: string | null;
  kind: DiffKind;
}

type Json = unknown;

/** Writes an instant of the stored values ("2026-03-02T08:00:00Z") as the page writes times. */
export type InstantFormat = (iso: string) => string;

// An instant as the API stores it: date, time, optional fraction, and Z or an offset.
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function isPlainObject(value: Json): value is Record<string, Json> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A leaf value as text: strings as they are (instants by `formatInstant`, as the "When"
 * beside them), a list of texts one per line (workflow rules read as typed, without JSON's
 * escaping), everything else as JSON.
 */
export function formatValue(value: Json, formatInstant?: InstantFormat): string {
  if (typeof value === 'string') {
    return formatInstant && INSTANT.test(value) ? formatInstant(value) : value;
  }
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')) {
    return value.join('\n');
  }
  if (value === undefined) {
    return '';
  }
  return JSON.stringify(value);
}

/** Paths to leaf values; a list of plain values stays one leaf ("[0,1,2]"). */
export function flatten(value: Json, prefix = ''): Map<string, Json> {
  const out = new Map<string, Json>();
  const visit = (node: Json, path: string) => {
    if (isPlainObject(node)) {
      const keys = Object.keys(node);
      if (keys.length === 0 && path) {
        out.set(path, node);
      }
      for (const key of keys) {
        visit(node[key], path ? `${path}.${key}` : key);
      }
    } else if (
      Array.isArray(node) &&
      node.some((item) => isPlainObject(item) || Array.isArray(item))
    ) {
      node.forEach((item, index) => {
        visit(item, `${path}[${index}]`);
      });
    } else if (path) {
      out.set(path, node);
    }
  };
  visit(value, prefix);
  return out;
}

/**
 * The lines of a diff, in the order of `after`'s paths followed by paths only `before` has.
 * A created entity (no before) is all 'added', a deleted one (no after) all 'removed'.
 */
export function auditDiff(before: Json, after: Json, formatInstant?: InstantFormat): DiffLine[] {
  const old = before === null || before === undefined ? new Map<string, Json>() : flatten(before);
  const next = after === null || after === undefined ? new Map<string, Json>() : flatten(after);
  const paths = [...next.keys(), ...[...old.keys()].filter((path) => !next.has(path))];
  return paths.map((path): DiffLine => {
    const inOld = old.has(path);
    const inNext = next.has(path);
    const beforeText = inOld ? formatValue(old.get(path), formatInstant) : null;
    const afterText = inNext ? formatValue(next.get(path), formatInstant) : null;
    let kind: DiffKind;
    if (!inOld) {
      kind = 'added';
    } else if (!inNext) {
      kind = 'removed';
    } else {
      kind =
        JSON.stringify(old.get(path)) === JSON.stringify(next.get(path)) ? 'unchanged' : 'changed';
    }
    return { path, before: beforeText, after: afterText, kind };
  });
}

/** Only what differs (the list's compact view); everything of a create or delete. */
export function changedLines(lines: readonly DiffLine[]): DiffLine[] {
  return lines.filter((line) => line.kind !== 'unchanged');
}
