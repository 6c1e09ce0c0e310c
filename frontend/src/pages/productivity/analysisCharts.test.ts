import { describe, expect, it } from 'vitest';
import { STATE_COLORS } from '../../components/charts';
import { testContext } from '../../test/chartContext';
import {
  distanceLoadsChart,
  hasNoData,
  heatmapIsEmpty,
  ordersHeatmapChart,
  productivityTiles,
  timeInStateChart,
} from './analysisCharts';
import { entry, kpis, productivity, states } from './testData';

interface BarSeries {
  name: string;
  stack: string;
  data: number[];
  itemStyle: { color: string };
}

describe('timeInStateChart', () => {
  it('stacks one bar per vehicle in hours, states in fixed colours', () => {
    const data = productivity([
      entry(1, 'AGV 01'),
      entry(2, 'AGV 02', { states: states({ working: 7200, idle: 0 }) }),
    ]);
    const { option, table } = timeInStateChart(data, testContext());
    const { series, yAxis } = option as { series: BarSeries[]; yAxis: { data: string[] } };
    expect(yAxis.data).toEqual(['AGV 01', 'AGV 02']);
    expect(series.map((s) => s.name)).toEqual([
      'productivity.states.error',
      'productivity.states.offline',
      'productivity.states.manual',
      'productivity.states.charging',
      'productivity.states.idle',
      'productivity.states.working',
    ]);
    const working = series.find((s) => s.name === 'productivity.states.working');
    expect(working?.data).toEqual([9.6, 2]);
    expect(working?.itemStyle.color).toBe(STATE_COLORS.working);
    expect(new Set(series.map((s) => s.stack))).toEqual(new Set(['time']));
    expect(table.rows[1]).toMatchObject({ vehicle: 'AGV 02', working: 7200, idle: 0 });
  });

  it('labels the combined entry', () => {
    const { option } = timeInStateChart(productivity([entry(null, null)]), testContext());
    expect((option as { yAxis: { data: string[] } }).yAxis.data).toEqual(['charts.combinedEntry']);
  });

  it('knows when there is nothing recorded', () => {
    const empty = productivity([entry(1, 'AGV 01')]);
    empty.fleet = entry(null, null, {
      states: states({ error: 0, manual: 0, charging: 0, working: 0, idle: 0 }),
    });
    empty.fleet.kpis.ordersFinished = 0;
    expect(hasNoData(empty)).toBe(true);
    expect(hasNoData(productivity([entry(1, 'AGV 01')]))).toBe(false);
  });
});

describe('productivityTiles', () => {
  it('formats the fleet KPIs with trends in the user language', () => {
    const tiles = productivityTiles(productivity([entry(1, 'AGV 01')]), testContext('de'));
    const byKey = Object.fromEntries(tiles.map((tile) => [tile.key, tile]));
    expect(tiles.map((tile) => tile.key)).toEqual([
      'availability',
      'utilization',
      'idleShare',
      'chargingShare',
      'throughput',
      'orders',
      'loads',
      'distance',
    ]);
    expect(byKey.availability?.value).toBe('95,8\u00a0%');
    expect(byKey.availability?.trend).toMatchObject({ direction: 'up', good: true });
    expect(byKey.availability?.deltaText).toBe('+5,8 productivity.points');
    // Less idle time is good.
    expect(byKey.idleShare?.trend).toMatchObject({ direction: 'down', good: true });
    expect(byKey.orders?.deltaText).toBe('+10');
    expect(byKey.distance?.value).toBe('12,3 km');
    expect(byKey.distance?.trend?.direction).toBe('flat');
  });

  it('compares with nothing when the previous period lies before the first message', () => {
    const data = productivity([entry(1, 'AGV 01')]);
    const before = { noDataSeconds: 86400, plannedSeconds: 0, ordersFinished: 0 };
    data.fleet.previous = kpis({ ...before, availability: null });
    const tiles = productivityTiles(data, testContext());
    expect(tiles.every((tile) => tile.trend === null)).toBe(true);
    expect(tiles.find((tile) => tile.key === 'orders')?.previousText).toBe('charts.noValue');
  });

  it('compares with 0 when the connected fleet spent the previous period offline', () => {
    const data = productivity([entry(1, 'AGV 01')]);
    const offline = { noDataSeconds: 0, plannedSeconds: 0, ordersFinished: 0 };
    data.fleet.previous = kpis({ ...offline, availability: null });
    const orders = productivityTiles(data, testContext()).find((tile) => tile.key === 'orders');
    expect(orders?.previousText).toBe('0');
    expect(orders?.trend).not.toBeNull();
  });

  it('shows no data and no trend for a KPI without a denominator', () => {
    const data = productivity([entry(1, 'AGV 01')]);
    data.fleet.kpis.availability = null;
    const tile = productivityTiles(data, testContext()).find((t) => t.key === 'availability');
    expect(tile?.value).toBe('charts.noValue');
    expect(tile?.trend).toBeNull();
    expect(tile?.deltaText).toBeUndefined();
  });
});

describe('ordersHeatmapChart', () => {
  it('places orders at [hour, weekday] and tables a row per weekday', () => {
    const data = productivity([entry(1, 'AGV 01')]);
    const heatmap = data.heatmap.map((row) => [...row]);
    (heatmap[0] as number[])[8] = 5; // Monday 08:00
    (heatmap[6] as number[])[23] = 2; // Sunday 23:00
    const { option, table } = ordersHeatmapChart(heatmap, testContext('de'));
    const { series, visualMap, yAxis } = option as {
      series: Array<{ data: Array<[number, number, number]> }>;
      visualMap: { max: number };
      yAxis: { data: string[] };
    };
    expect(series[0]?.data).toContainEqual([8, 0, 5]);
    expect(series[0]?.data).toContainEqual([23, 6, 2]);
    expect(series[0]?.data).toHaveLength(7 * 24);
    expect(visualMap.max).toBe(5);
    expect(yAxis.data[0]).toBe('Mo');
    expect(table.rows[0]).toMatchObject({ weekday: 'Mo', h08: 5, total: 5 });
    expect(table.columns).toHaveLength(26);
    expect(heatmapIsEmpty(heatmap)).toBe(false);
    expect(heatmapIsEmpty(data.heatmap)).toBe(true);
  });
});

describe('distanceLoadsChart', () => {
  it('puts distance on the left and loads on the right axis', () => {
    const data = productivity([entry(1, 'AGV 01'), entry(2, 'AGV 02')]);
    const { option, table } = distanceLoadsChart(data, testContext());
    const { series } = option as { series: Array<{ yAxisIndex: number; data: number[] }> };
    expect(series[0]).toMatchObject({ yAxisIndex: 0, data: [12.3, 12.3] });
    expect(series[1]).toMatchObject({ yAxisIndex: 1, data: [120, 120] });
    expect(table.rows[0]).toMatchObject({
      vehicle: 'AGV 01',
      distanceKm: 12.34,
      loads: 120,
      previousLoads: 120,
    });
  });

  it('on a phone stands the names upright and leaves the loads axis unnamed (the legend names it)', () => {
    const { option } = distanceLoadsChart(productivity([entry(1, 'AGV 01')]), testContext());
    const [narrow] = (option as { media: { query: object; option: object }[] }).media;
    expect(narrow).toEqual({
      query: { maxWidth: 480 },
      option: {
        xAxis: { axisLabel: { width: 96, overflow: 'truncate', rotate: 90 } },
        yAxis: [{}, { name: '' }],
      },
    });
  });
});
