/** The API's bounds of a battery capacity (admin_bodies.py): above 0, at most 10,000,000 Wh. */
export const MAX_CAPACITY_WH = 10_000_000;

export type CapacityProblem = 'notNumber' | 'tooSmall' | 'tooLarge';

/**
 * What the capacity field holds, read as the API's rule reads it: empty is "unknown"
 * (null). Nothing is clamped or rounded here, so what is saved is what was typed; a value
 * the API would refuse comes back as the problem to show instead.
 */
export function checkCapacity(
  typed: number | string,
): { value: number | null; problem: null } | { value: null; problem: CapacityProblem } {
  if (typeof typed === 'string' && typed.trim() === '') {
    return { value: null, problem: null };
  }
  // NumberInput hands over a string while the text is no number yet ("-", "1.").
  const value = Number(typed);
  if (!Number.isFinite(value)) {
    return { value: null, problem: 'notNumber' };
  }
  if (value <= 0) {
    return { value: null, problem: 'tooSmall' };
  }
  if (value > MAX_CAPACITY_WH) {
    return { value: null, problem: 'tooLarge' };
  }
  return { value, problem: null };
}
