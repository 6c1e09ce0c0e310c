import { formatDecimal, formatNumber, formatPercent, formatShare } from '../../lib/format';
import { formatPreciseDuration } from './chartParts';

/** The units KPI values come in from the analytics API. */
export type KpiUnit = 'share' | 'perHour' | 'count' | 'seconds' | 'percent' | 'km';

/** A KPI value with its unit in the user's language; null is the "no data" text. */
export function formatKpiValue({
  value,
  unit,
  language,
  noData,
}: {
  value: number | null;
  unit: KpiUnit;
  language: string;
  noData: string;
}): string {
  if (value === null) {
    return noData;
  }
  switch (unit) {
    case 'share':
      return formatShare(value, language);
    case 'perHour':
      return `${formatDecimal(value, language, 1)} /h`;
    case 'count':
      return formatNumber(Math.round(value), language);
    case 'seconds':
      // Seconds below ten minutes, so "2 min 05 s" and "1 min 58 s" do not both read "2 min".
      return formatPreciseDuration(value, language);
    case 'percent':
      return formatPercent(value, language);
    case 'km':
      return `${formatDecimal(value, language, 1)} km`;
  }
}

const MINUS = '\u2212';

/** The unit of a change of a share or a percentage: "pp" in English, "Pp." in German. */
export function pointsUnit(language: string): string {
  return language.startsWith('de') ? 'Pp.' : 'pp';
}

/**
 * Decimals that keep a change visible: one by default, more (at most three) while the
 * change would round to zero, so a real change never reads "+0.0".
 */
export function changeDigits(size: number, digits = 1): number {
  let shown = digits;
  while (shown < 3 && size > 0 && Math.round(size * 10 ** shown) === 0) {
    shown += 1;
  }
  return shown;
}

/** "+1.2", "−0.04" (the minus sign, not a hyphen); zero is "±0". */
export function signedNumber(delta: number, language: string, digits = 1): string {
  const sign = delta > 0 ? '+' : delta < 0 ? MINUS : '±';
  const size = Math.abs(delta);
  return `${sign}${formatDecimal(size, language, size === 0 ? 0 : changeDigits(size, digits))}`;
}

/**
 * A change against the previous period with its sign: shares and percentages in
 * percentage points ("pp" / "Pp."), durations as durations, others in their unit.
 * `pointsLabel` overrides the points unit (defaults to the language's).
 */
export function formatKpiDelta({
  delta,
  unit,
  language,
  pointsLabel = pointsUnit(language),
}: {
  delta: number;
  unit: KpiUnit;
  language: string;
  pointsLabel?: string;
}): string {
  if (unit === 'share') {
    return `${signedNumber(delta * 100, language)} ${pointsLabel}`;
  }
  if (unit === 'percent') {
    // A change of a percentage (mean charge) is in percentage points, not percent.
    return `${signedNumber(delta, language)} ${pointsLabel}`;
  }
  if (unit === 'perHour' || unit === 'km') {
    return `${signedNumber(delta, language)} ${unit === 'km' ? 'km' : '/h'}`;
  }
  const sign = delta > 0 ? '+' : delta < 0 ? MINUS : '±';
  return `${sign}${formatKpiValue({ value: Math.abs(delta), unit, language, noData: '' })}`;
}
