import type { DashboardTile, Granularity } from '../../api/analytics';
import {
  type ChartContext,
  formatKpiDelta,
  formatKpiValue,
  type KpiUnit,
  type SparklineModel,
  type Trend,
  trendOf,
} from '../../components/charts';
import { formatIsoDate, NUMERIC_DATE } from '../../lib/format';
import { isApproximate, markApproximate } from '../processes/approximate';

export interface DashboardTileModel {
  key: DashboardTile['key'];
  label: string;
  value: string;
  previousText: string;
  trend: Trend | null;
  deltaText: string | undefined;
  /** The value is a percentile from a histogram (a period longer than 31 days): "≈" before it. */
  approximate: boolean;
  /** null when the period has fewer than two buckets (a line needs two points). */
  sparkline: SparklineModel | null;
}

const UNITS: Record<DashboardTile['unit'], KpiUnit> = {
  share: 'share',
  perHour: 'perHour',
  count: 'count',
  seconds: 'seconds',
  percent: 'percent',
};

function bucketText(from: string, granularity: Granularity, language: string): string {
  return granularity === 'month'
    ? formatIsoDate(from, language, { dateStyle: undefined, month: 'short', year: 'numeric' })
    : formatIsoDate(from, language, { dateStyle: undefined, ...NUMERIC_DATE });
}

/**
 * A dashboard tile from the API: value, trend arrow and delta, sparkline over the buckets.
 * `periodWithoutData`: the selected vehicles sent nothing in the period (the page says so
 * above the tiles), so a count reads "no data" like the ratios, not 0.
 */
export function dashboardTileModel(
  apiTile: DashboardTile,
  granularity: Granularity,
  ctx: ChartContext,
  { periodWithoutData = false }: { periodWithoutData?: boolean } = {},
): DashboardTileModel {
  const tile = periodWithoutData ? { ...apiTile, value: null, series: [] } : apiTile;
  const { language, t, theme } = ctx;
  const unit = UNITS[tile.unit];
  const noData = t('charts.noValue');
  // Null also when the previous period recorded nothing (the API leaves it out then).
  const previous = tile.previous;
  const trend = trendOf({ value: tile.value, previous, higherIsBetter: tile.higherIsBetter });
  const format = (value: number | null) => formatKpiValue({ value, unit, language, noData });
  // The previous period is as long as the period, so its percentile is computed the same way.
  const approximate = isApproximate(tile.exact);
  return {
    key: tile.key,
    label: t(`dashboard.tiles.${tile.key}`),
    value: markApproximate(format(tile.value), tile.value !== null, approximate),
    previousText: markApproximate(format(previous), previous !== null, approximate),
    trend,
    approximate,
    deltaText: trend
      ? formatKpiDelta({
          delta: trend.delta,
          unit,
          language,
          pointsLabel: t('productivity.points'),
        })
      : undefined,
    sparkline:
      tile.series.length >= 2
        ? {
            // A running bucket says so: "25.11.26 (so far)".
            labels: tile.series.map((point) => {
              const label = bucketText(point.from, granularity, language);
              return point.partial ? `${label} (${t('charts.soFar')})` : label;
            }),
            values: tile.series.map((point) => point.value),
            texts: tile.series.map((point) => format(point.value)),
            partial: tile.series.map((point) => point.partial === true),
            color: theme.palette[0] ?? '#059683',
          }
        : null,
  };
}
