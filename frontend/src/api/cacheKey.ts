/**
 * Cache keys of the request chain: the url plus the request body with its object keys
 * sorted recursively, so `{a, b}` and `{b, a}` hit the same entry (spec section 9).
 */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeysDeep(value)) ?? 'undefined';
}

function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(sortKeysDeep);
  }
  if (value !== null && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(source).sort()) {
      sorted[key] = sortKeysDeep(source[key]);
    }
    return sorted;
  }
  return value;
}

export function cacheKey(url: string, body: unknown): string {
  return body === undefined ? url : `${url}\n${stableStringify(body)}`;
}
