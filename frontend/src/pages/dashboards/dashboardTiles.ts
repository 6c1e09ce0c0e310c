import type { DashboardTile, Granularity } from '../../api/analytics';
import {
  type ChartContext,
  type ChartOption,
  formatKpiDelta,
  formatKpiValue,
  type KpiUnit,
  sparklineOption,
  type Trend,
  trendOf,
} from '../../components/charts';
import { formatIsoDate } from '../../lib/format';

export interface DashboardTileModel {
  key: DashboardTile['key'];
  label: string;
  value: string;
  previousText: string;
  trend: Trend | null;
  deltaText: string | undefined;
  /** null when the period has fewer than two buckets (a line needs two points). */
  sparkline: ChartOption | null;
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
    : formatIsoDate(from, language, { dateStyle: 'short' });
}

/** A dashboard tile from the API: value, trend arrow and delta, sparkline over the buckets. */
export function dashboardTileModel(
  tile: DashboardTile,
  granularity: Granularity,
  ctx: ChartContext,
): DashboardTileModel {
  const { language, t, theme } = ctx;
  const unit = UNITS[tile.unit];
  const noData = t('charts.noValue');
  const trend = trendOf({
    value: tile.value,
    previous: tile.previous,
    higherIsBetter: tile.higherIsBetter,
  });
  const format = (value: number) => formatKpiValue({ value, unit, language, noData });
  return {
    key: tile.key,
    label: t(`dashboard.tiles.${tile.key}`),
    value: formatKpiValue({ value: tile.value, unit, language, noData }),
    previousText: formatKpiValue({ value: tile.previous, unit, language, noData }),
    trend,
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
        ? sparklineOption({
            labels: tile.series.map((point) => bucketText(point.from, granularity, language)),
            values: tile.series.map((point) => point.value),
            color: theme.palette[0] ?? '#059683',
            theme,
            formatValue: format,
          })
        : null,
  };
}
