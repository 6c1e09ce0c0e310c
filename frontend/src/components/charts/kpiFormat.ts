import { formatDecimal, formatDuration, formatNumber, formatShare } from '../../lib/format';

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
      return formatDuration(value, language);
    case 'percent':
      return `${formatDecimal(value, language, 1)} %`;
    case 'km':
      return `${formatDecimal(value, language, 1)} km`;
  }
}

const MINUS = '\u2212';

/**
 * A change against the previous period with its sign: shares in percentage points
 * (`pointsLabel`, "pp" / "Pp."), durations as durations, others in their unit.
 */
export function formatKpiDelta({
  delta,
  unit,
  language,
  pointsLabel,
}: {
  delta: number;
  unit: KpiUnit;
  language: string;
  pointsLabel: string;
}): string {
  const sign = delta > 0 ? '+' : delta < 0 ? MINUS : '±';
  const size = Math.abs(delta);
  if (unit === 'share') {
    return `${sign}${formatDecimal(size * 100, language, 1)} ${pointsLabel}`;
  }
  return `${sign}${formatKpiValue({ value: size, unit, language, noData: '' })}`;
}
