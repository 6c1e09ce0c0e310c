import { formatDecimal, formatNumber, formatPercent, formatShare } from '../../lib/format';
import { formatPreciseDuration } from './chartParts';
import { pointsUnit, signedNumber } from './kpiFormat';
import { type Trend, trendOf } from './trend';

/**
 * The texts of a KPI tile (value, change against the previous period, previous value) in
 * the user's language. Pure: the pages only place them.
 */
export type TileFormat = 'duration' | 'share' | 'integer' | 'decimal' | 'percentPoints' | 'kWh';

export interface KpiTexts {
  value: string;
  trend: Trend | null;
  deltaText?: string;
  previousText?: string;
}

/** A figure in the user's language, the way tiles and list cells show it. */
export function formatFigure(unit: TileFormat, value: number, language: string): string {
  switch (unit) {
    case 'duration':
      return formatPreciseDuration(value, language);
    case 'share':
      return formatShare(value, language);
    case 'integer':
      return formatNumber(Math.round(value), language);
    case 'percentPoints':
      return formatPercent(value, language);
    case 'kWh':
      // The API counts energy in Wh; a fleet charges thousands of them a day.
      return `${formatDecimal(value / 1000, language)} kWh`;
    default:
      return formatDecimal(value, language);
  }
}

function formatDelta(unit: TileFormat, delta: number, language: string): string {
  if (unit === 'share') {
    // A change of a share is in percentage points, not percent.
    return `${signedNumber(delta * 100, language)} ${pointsUnit(language)}`;
  }
  if (unit === 'percentPoints') {
    return `${signedNumber(delta, language)} ${pointsUnit(language)}`;
  }
  if (unit === 'kWh') {
    return `${signedNumber(delta / 1000, language)} kWh`;
  }
  if (unit === 'decimal') {
    return signedNumber(delta, language);
  }
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  return `${sign}${formatFigure(unit, Math.abs(delta), language)}`;
}

export function kpiTexts({
  value,
  previous,
  unit,
  higherIsBetter,
  language,
  noData,
}: {
  value: number | null;
  previous: number | null;
  unit: TileFormat;
  higherIsBetter: boolean;
  language: string;
  noData: string;
}): KpiTexts {
  const trend = trendOf({ value, previous, higherIsBetter });
  return {
    value: value === null ? noData : formatFigure(unit, value, language),
    trend,
    deltaText: trend ? formatDelta(unit, trend.delta, language) : undefined,
    previousText: previous === null ? undefined : formatFigure(unit, previous, language),
  };
}

/**
 * `kpiTexts` bound to the user's language and its text for a figure without data
 * (`charts.noValue`: a tile says "no data", product.md section 3), taking the API's
 * optional figures as they come: `kpi(current?.x, previous?.x, unit, higherIsBetter)`.
 */
export function kpiTextsIn(language: string, noData: string) {
  return (
    value: number | null | undefined,
    previous: number | null | undefined,
    unit: TileFormat,
    higherIsBetter: boolean,
  ): KpiTexts =>
    kpiTexts({
      value: value ?? null,
      previous: previous ?? null,
      unit,
      higherIsBetter,
      language,
      noData,
    });
}

/** The two figures that tell whether a period is a comparison (every page's Kpis have them). */
export interface PeriodCoverage {
  periodSeconds: number;
  noDataSeconds: number;
}

/**
 * Whether a period has any time after the vehicles' first message: one before the fleet was
 * connected is no comparison ("+476 against 0" would only mislead), one it spent offline is
 * ("previous: 0"). The server's dashboard tiles and workflow trends decide the same way.
 */
export function periodRecorded(period: PeriodCoverage): boolean {
  return period.noDataSeconds < period.periodSeconds;
}

/** The previous period's figures to compare with, or null (`periodRecorded`). */
export function comparableFigures<F extends PeriodCoverage>(previous: F | undefined): F | null {
  return previous && periodRecorded(previous) ? previous : null;
}

/** The share of a period's vehicle time after the vehicles' first messages (0..1). */
export function recordedShare(period: PeriodCoverage): number {
  return period.periodSeconds > 0
    ? Math.max(0, 1 - period.noDataSeconds / period.periodSeconds)
    : 0;
}

/**
 * The recorded shares of both periods when the previous one, compared all the same, has
 * data for less than half as much of its vehicle time as the current one (the fleet began
 * reporting during it, or vehicles joined since): its counts are not like for like, which
 * the page says beside its tiles. Null otherwise, and without a comparison.
 */
export function partlyRecorded(
  current: PeriodCoverage,
  previous: PeriodCoverage | null | undefined,
): { current: number; previous: number } | null {
  if (!previous || !periodRecorded(previous)) {
    return null;
  }
  const shares = { current: recordedShare(current), previous: recordedShare(previous) };
  return shares.previous < shares.current / 2 ? shares : null;
}
