import { describe, expect, it } from 'vitest';
import { cacheKey, stableStringify } from './cacheKey';

describe('cache key', () => {
  it('sorts object keys recursively, keeping array order', () => {
    const a = { b: 1, a: { d: [{ y: 1, x: 2 }], c: null } };
    const b = { a: { c: null, d: [{ x: 2, y: 1 }] }, b: 1 };
    expect(stableStringify(a)).toBe(stableStringify(b));
    expect(stableStringify(a)).toBe('{"a":{"c":null,"d":[{"x":2,"y":1}]},"b":1}');
    expect(stableStringify([2, 1])).not.toBe(stableStringify([1, 2]));
  });

  it('is the url plus the sorted body; no body means the url alone', () => {
    expect(cacheKey('/v2/X', { z: 1, a: 2 })).toBe('/v2/X\n{"a":2,"z":1}');
    expect(cacheKey('/v2/X', undefined)).toBe('/v2/X');
    expect(cacheKey('/v2/X', { a: 1 })).not.toBe(cacheKey('/v2/Y', { a: 1 }));
  });
});
