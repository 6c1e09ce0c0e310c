import type { BatteryResult, HealthPoint } from '../../api/analytics-battery';
import type { ChartContext, ChartModel, ChartStatus } from '../../components/charts';
import { axisStyle, baseCartesian, seriesLook } from '../../components/charts';
import { entryName } from '../../components/charts/chartParts';
import { percent, siteTimeTicks, timeAxis } from './batteryChartParts';

/** Pure transforms of the battery page's health (SoH) trend. Health is a percentage. */

/** The fitted line's value at `at`: a straight line through its two points; null without one. */
export function trendAt(trend: HealthPoint[], at: number): number | null {
  const [first, last] = trend;
  if (!first || !last) {
    return null;
  }
  const [firstAt, firstHealth] = first;
  const [lastAt, lastHealth] = last;
  const span = lastAt - firstAt;
  if (span === 0) {
    return firstHealth;
  }
  return firstHealth + ((lastHealth - firstHealth) * (at - firstAt)) / span;
}

const TREND_AXIS_STEPS = [0.5, 1, 2, 5, 10, 20];

/**
 * The health-over-time axis, zoomed to the values (health moves by tenths of a point: a
 * 0..100 axis would flatten every line): a point of room each side, bounds on a step that
 * gives at most 6 intervals, at most 100 % (a multiple of every step). ECharts' own
 * bounds would end at, say, 99 % above a tick at 98 %.
 */
export function healthTrendAxisRange(values: readonly number[]): {
  min: number;
  max: number;
  interval: number;
} {
  const low = Math.max(0, Math.floor(Math.min(...values, 100) - 1));
  const high = Math.min(100, Math.ceil(Math.max(...values, low + 1) + 1));
  for (const step of TREND_AXIS_STEPS) {
    const min = Math.floor(low / step) * step;
    const max = Math.min(100, Math.ceil(high / step) * step);
    if ((max - min) / step <= 6) {
      return { min, max, interval: step };
    }
  }
  return { min: 0, max: 100, interval: 20 };
}

/**
 * State of health over time, one line per vehicle that reports it (or the combined line) (in the vehicle's colour of
 * the charge chart) with its fitted trend dashed. The trend is a mark line of the vehicle's
 * series, so the legend hides both at once and the axis tooltip lists measured values only.
 */
export function healthTrendChart(data: BatteryResult, ctx: ChartContext): ChartModel {
  const format = percent(ctx);
  const reported = data.healthSeries
    .map((series, index) => ({ series, color: seriesLook(ctx.theme, index).color }))
    .filter(({ series }) => series.points.length > 0);
  const timeTicks = siteTimeTicks(
    ctx,
    reported.flatMap(({ series }) => [...series.points, ...series.trend].map(([at]) => at)),
  );
  return {
    timeTicks,
    option: {
      ...baseCartesian(ctx.theme),
      tooltip: { ...baseCartesian(ctx.theme).tooltip, valueFormatter: format },
      xAxis: timeAxis(ctx, timeTicks),
      yAxis: {
        type: 'value',
        ...healthTrendAxisRange(
          reported.flatMap(({ series }) =>
            [...series.points, ...series.trend].map(([, health]) => health),
          ),
        ),
        ...axisStyle(ctx.theme),
        axisLabel: { color: ctx.theme.mutedText, formatter: format },
      },
      dataZoom: [{ type: 'inside' }],
      series: reported.map(({ series, color }) => {
        const [first, last] = series.trend;
        return {
          name: entryName(series.name, ctx),
          type: 'line',
          showSymbol: series.points.length === 1,
          data: series.points,
          itemStyle: { color },
          lineStyle: { width: 1.5 },
          ...(first && last
            ? {
                markLine: {
                  silent: true,
                  symbol: 'none',
                  label: { show: false },
                  lineStyle: { color, type: 'dashed', width: 1.5 },
                  data: [[{ coord: first }, { coord: last }]],
                },
              }
            : {}),
        };
      }),
    },
    table: {
      columns: [
        { key: 'vehicle', label: ctx.t('battery.vehicle'), format: 'text' },
        { key: 'at', label: ctx.t('battery.time'), format: 'dateTime', timeZone: ctx.timeZone },
        { key: 'health', label: ctx.t('battery.healthPercent'), format: 'decimal' },
        { key: 'trend', label: ctx.t('battery.healthFitted'), format: 'decimal', digits: 2 },
      ],
      rows: reported.flatMap(({ series }) =>
        series.points.map(([at, health]) => ({
          vehicle: entryName(series.name, ctx),
          at,
          health,
          trend: trendAt(series.trend, at),
        })),
      ),
    },
  };
}

/**
 * The health chart's status. Empty while the vehicles do report a charge means they report no
 * state of health (many do not): say that, not "no data in this period".
 */
export function healthChartStatus(
  status: ChartStatus,
  data: BatteryResult | undefined,
): ChartStatus {
  const chargeReported = data?.series.some((series) => series.points.length > 0) ?? false;
  return status.kind === 'empty' && chargeReported ? { kind: 'empty', reason: 'noHealth' } : status;
}
