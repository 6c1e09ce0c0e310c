import { formatDecimal } from '../../lib/format';

/** "−1.88": the health trend's least-squares slope (points per 30 days), or null without one. */
export function healthSlopeText(slope: number | null, language: string): string | null {
  if (slope === null) {
    return null;
  }
  const sign = slope > 0 ? '+' : slope < 0 ? '−' : '±';
  return `${sign}${formatDecimal(Math.abs(slope), language, 2)}`;
}
