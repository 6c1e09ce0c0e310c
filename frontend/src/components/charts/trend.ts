/** Trend of a KPI against the previous period, for the arrow and its colour. */
export interface Trend {
  direction: 'up' | 'down' | 'flat';
  /** value - previous, in the KPI's own unit (a share stays a fraction). */
  delta: number;
  /** true: the change is good, false: bad, null: no change or no meaning. */
  good: boolean | null;
}

/**
 * Compares with the previous period. Changes smaller than `tolerance` (relative to the
 * larger magnitude) count as flat, so rounding noise never shows a red arrow; the delta
 * stays the real one, for the tile to print.
 */
export function trendOf({
  value,
  previous,
  higherIsBetter,
  tolerance = 0.005,
}: {
  value: number | null;
  previous: number | null;
  /** null: neither direction is better (e.g. distance); the arrow stays neutral. */
  higherIsBetter: boolean | null;
  tolerance?: number;
}): Trend | null {
  if (value === null || previous === null) {
    return null;
  }
  const delta = value - previous;
  const scale = Math.max(Math.abs(value), Math.abs(previous));
  if (scale === 0 || Math.abs(delta) <= tolerance * scale) {
    return { direction: 'flat', delta, good: null };
  }
  const direction = delta > 0 ? 'up' : 'down';
  return {
    direction,
    delta,
    good: higherIsBetter === null ? null : (direction === 'up') === higherIsBetter,
  };
}

/**
 * What a tile says about its trend: "unchanged" (with a flat, neutral arrow) exactly when the
 * value and the previous value read the same, so "unchanged" never stands beside two
 * different numbers, nor an arrow beside two equal ones; otherwise the trend as computed.
 */
export function shownTrend(
  trend: Trend | null,
  value: string,
  previousText: string | undefined,
): { trend: Trend | null; unchanged: boolean } {
  if (trend === null || value !== previousText) {
    return { trend, unchanged: false };
  }
  return { trend: { direction: 'flat', delta: 0, good: null }, unchanged: true };
}
