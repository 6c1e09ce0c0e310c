import { describe, expect, it } from 'vitest';
import type { BatteryResult, ChargeSeries, HealthSeries } from '../../api/analytics-battery';
import { testContext } from '../../test/chartContext';
import { chargeChart } from './batteryCharts';
import { healthChartStatus, healthTrendAxisRange, healthTrendChart, trendAt } from './healthCharts';

type Series = {
  name: string;
  data: unknown[];
  itemStyle: { color: string };
  markLine?: { lineStyle: { type: string; color: string }; data: unknown[] };
};
const seriesOf = (option: unknown) => (option as { series: Series[] }).series;
type YAxis = { min: number; max: number; interval: number };

const reporting: HealthSeries = {
  vehicleId: 1,
  name: 'AGV 01',
  points: [
    [Date.parse('2026-11-01T00:00:00Z'), 96.2],
    [Date.parse('2026-11-11T00:00:00Z'), 95.5],
    [Date.parse('2026-11-21T00:00:00Z'), 95.0],
  ],
  // 96.1 -> 95.0 over 20 days: -1.65 points per 30 days.
  trend: [
    [Date.parse('2026-11-01T00:00:00Z'), 96.1],
    [Date.parse('2026-11-21T00:00:00Z'), 95.0],
  ],
};
const silent: HealthSeries = { vehicleId: 2, name: 'AGV 02', points: [], trend: [] };
const charge = (vehicleId: number | null, name: string | null): ChargeSeries => ({
  vehicleId,
  name,
  points: [[Date.parse('2026-11-01T00:00:00Z'), 60]],
});

function result(healthSeries: HealthSeries[], chargeReported = true): BatteryResult {
  return {
    period: {} as BatteryResult['period'],
    lowChargeThreshold: 20,
    series: healthSeries.map((s) =>
      chargeReported ? charge(s.vehicleId, s.name) : { ...charge(s.vehicleId, s.name), points: [] },
    ),
    healthSeries,
    entries: [],
    fleet: {} as BatteryResult['fleet'],
  };
}

describe('health trend transform', () => {
  it('draws the reporting vehicles in their charge-chart colours, the fitted line dashed', () => {
    const data = result([silent, reporting]);
    const ctx = testContext();
    const series = seriesOf(healthTrendChart(data, ctx).option);
    expect(series.map((s) => s.name)).toEqual(['AGV 01']);
    expect(series[0]?.data).toEqual([
      [Date.parse('2026-11-01T00:00:00Z'), 96.2],
      [Date.parse('2026-11-11T00:00:00Z'), 95.5],
      [Date.parse('2026-11-21T00:00:00Z'), 95.0],
    ]);
    // AGV 01 is the second line of the page: the charge chart draws it in palette[1] too.
    expect(series[0]?.itemStyle.color).toBe(ctx.theme.palette[1]);
    const chargeOption = chargeChart(data, ctx).option as {
      series: Array<{ lineStyle: { color: string } }>;
    };
    expect(chargeOption.series[1]?.lineStyle.color).toBe(series[0]?.itemStyle.color);
    expect(series[0]?.markLine?.lineStyle).toMatchObject({
      type: 'dashed',
      color: ctx.theme.palette[1],
    });
    expect(series[0]?.markLine?.data).toEqual([
      [
        { coord: [Date.parse('2026-11-01T00:00:00Z'), 96.1] },
        { coord: [Date.parse('2026-11-21T00:00:00Z'), 95.0] },
      ],
    ]);
  });

  it('draws no trend where the backend fitted none', () => {
    const single = { ...reporting, points: reporting.points.slice(0, 1), trend: [] };
    const series = seriesOf(healthTrendChart(result([single]), testContext()).option);
    expect(series[0]?.markLine).toBeUndefined();
    expect(series[0]?.data).toHaveLength(1);
  });

  it('tabulates each point with the fitted value at its time', () => {
    const model = healthTrendChart(result([reporting, silent]), testContext());
    expect(model.table.columns.map((c) => c.key)).toEqual(['vehicle', 'at', 'health', 'trend']);
    expect(model.table.rows).toHaveLength(3);
    expect(model.table.rows[1]).toMatchObject({ vehicle: 'AGV 01', health: 95.5 });
    expect(model.table.rows[1]?.trend).toBeCloseTo(95.55, 10);
    expect(model.table.rows[2]?.trend).toBeCloseTo(95.0, 10);
  });

  it('scales the health axis to the data in the user number format', () => {
    const option = healthTrendChart(result([reporting]), testContext('de')).option as {
      yAxis: YAxis & { axisLabel: { formatter: (v: unknown) => string } };
    };
    // Values and trend 95.0-96.2 %: a point of room each side, in steps of 1.
    expect(option.yAxis).toMatchObject({ min: 94, max: 98, interval: 1 });
    expect(option.yAxis.axisLabel.formatter(95.5)).toBe('95,5\u00a0%');
  });
});

describe('trendAt', () => {
  it('reads the straight line through the two trend points, also beyond them', () => {
    expect(trendAt(reporting.trend, Date.parse('2026-11-06T00:00:00Z'))).toBeCloseTo(95.825, 10);
    expect(trendAt(reporting.trend, Date.parse('2026-12-01T00:00:00Z'))).toBeCloseTo(94.45, 10);
    expect(trendAt([], Date.parse('2026-11-06T00:00:00Z'))).toBeNull();
  });
});

describe('health chart status', () => {
  const empty = { kind: 'empty', reason: 'noDataInPeriod' } as const;
  it('says the vehicles report no health when they do report a charge', () => {
    expect(healthChartStatus(empty, result([silent]))).toEqual({
      kind: 'empty',
      reason: 'noHealth',
    });
  });

  it('keeps the general reason when there is no battery data at all', () => {
    expect(healthChartStatus(empty, result([silent], false))).toEqual(empty);
    expect(healthChartStatus(empty, undefined)).toEqual(empty);
    expect(healthChartStatus({ kind: 'ready' }, result([reporting]))).toEqual({ kind: 'ready' });
    expect(healthChartStatus({ kind: 'loading' }, undefined)).toEqual({ kind: 'loading' });
  });
});

describe('healthTrendAxisRange', () => {
  it('zooms to the values with bounds on its step, so no odd top tick sits over the last one', () => {
    // 91.9-97.8 %: a point of room is 90-99; on steps of 2 that is 90-100 (ECharts: 99 over 98).
    expect(healthTrendAxisRange([91.9, 97.8])).toEqual({ min: 90, max: 100, interval: 2 });
    expect(healthTrendAxisRange([95.2, 95.6])).toEqual({ min: 94, max: 97, interval: 0.5 });
    expect(healthTrendAxisRange([60, 99.5])).toEqual({ min: 50, max: 100, interval: 10 });
    expect(healthTrendAxisRange([3, 99])).toEqual({ min: 0, max: 100, interval: 20 });
    expect(healthTrendAxisRange([])).toEqual({ min: 99, max: 100, interval: 0.5 });
  });
});
