import { describe, expect, it } from 'vitest';
import type { Kpis, ProductivityHistory } from '../../api/analytics';
import { testContext } from '../../test/chartContext';
import { bucketLabel, historyChart, historyIsEmpty, isoWeek } from './historyCharts';
import { kpiGrid, kpis } from './testData';

function days(...isoDays: string[]) {
  return isoDays.map((day) => ({ from: day, to: day }));
}

function line(...availability: Array<number | null>): Kpis[] {
  return availability.map((value) => kpis({ availability: value, ordersFinished: 10 }));
}

function history(granularity: ProductivityHistory['granularity'] = 'day'): ProductivityHistory {
  return {
    period: {
      from: '2026-11-19',
      to: '2026-11-21',
      previousFrom: '2026-11-16',
      previousTo: '2026-11-18',
      days: 3,
      shift: 'all',
      combined: false,
      vehicleIds: [1, 2],
    },
    granularity,
    buckets: days('2026-11-19', '2026-11-20', '2026-11-21'),
    previousBuckets: days('2026-11-16', '2026-11-17', '2026-11-18'),
    series: [
      { vehicleId: 1, name: 'AGV 01' },
      { vehicleId: 2, name: 'AGV 02' },
    ],
    kpis: kpiGrid([line(0.9, null, 0.95), line(0.7, 0.75, 0.8)]),
    previous: kpiGrid([line(0.8, 0.85, 0.9), line(0.6, 0.65, 0.7)]),
  };
}

interface LineSeries {
  name: string;
  data: Array<number | null>;
  lineStyle: { type?: string; color: string };
}

describe('historyChart', () => {
  it('draws each vehicle solid and its previous period dashed in the same colour', () => {
    const { option } = historyChart(history(), 'availability', testContext());
    const { series, xAxis } = option as { series: LineSeries[]; xAxis: { data: string[] } };
    expect(xAxis.data).toEqual(['19/11', '20/11', '21/11']);
    expect(series.map((s) => s.name)).toEqual([
      'AGV 01',
      'AGV 01 (charts.previousPeriod)',
      'AGV 02',
      'AGV 02 (charts.previousPeriod)',
    ]);
    expect(series[0]?.data).toEqual([0.9, null, 0.95]);
    expect(series[1]?.data).toEqual([0.8, 0.85, 0.9]);
    expect(series[1]?.lineStyle.type).toBe('dashed');
    expect(series[0]?.lineStyle.type).toBeUndefined();
    expect(series[1]?.lineStyle.color).toBe(series[0]?.lineStyle.color);
    expect(series[2]?.lineStyle.color).not.toBe(series[0]?.lineStyle.color);
  });

  it('tells ten vehicles apart: eight colours, then the colours again with another symbol', () => {
    const ten = history();
    ten.series = Array.from({ length: 10 }, (_, index) => ({
      vehicleId: index + 1,
      name: `AGV ${index + 1}`,
    }));
    ten.kpis = kpiGrid(ten.series.map(() => line(0.9, 0.9, 0.9)));
    ten.previous = kpiGrid(ten.series.map(() => line(0.8, 0.8, 0.8)));
    const { option } = historyChart(ten, 'availability', testContext());
    const current = (option as { series: Array<LineSeries & { symbol: string }> }).series.filter(
      (_, index) => index % 2 === 0,
    );
    const looks = current.map((s) => `${s.lineStyle.color} ${s.symbol}`);
    expect(new Set(looks).size).toBe(10);
    expect(new Set(current.slice(0, 8).map((s) => s.lineStyle.color)).size).toBe(8);
    expect(current[8]?.lineStyle.color).toBe(current[0]?.lineStyle.color);
    expect(current[8]?.symbol).not.toBe(current[0]?.symbol);
    // Solid all: a dashed line is a previous period on this chart.
    expect(current.every((s) => s.lineStyle.type === undefined)).toBe(true);
  });

  it('tables every bucket with current and previous values', () => {
    const { table } = historyChart(history(), 'orders', testContext());
    expect(table.columns.map((c) => c.key)).toEqual([
      'from',
      'to',
      'state',
      's0',
      'p0',
      's1',
      'p1',
    ]);
    expect(table.columns[3]?.format).toBe('integer');
    expect(table.rows[1]).toEqual({
      from: '2026-11-20',
      to: '2026-11-20',
      state: 'charts.bucketComplete',
      s0: 10,
      p0: 10,
      s1: 10,
      p1: 10,
    });
  });

  it('draws only the buckets returned, the segment into the running one dashed, "so far"', () => {
    // Thursday 19th to Saturday 21st, seen on Friday: the answer holds no Saturday, and
    // Friday (and the previous period's Tuesday, cut at the same time) is still running.
    const data = history();
    data.series = [
      { vehicleId: 1, name: 'AGV <01>' },
      { vehicleId: 2, name: 'AGV 02' },
    ];
    data.buckets = [
      { from: '2026-11-19', to: '2026-11-19', partial: false },
      { from: '2026-11-20', to: '2026-11-20', partial: true },
    ];
    data.previousBuckets = [
      { from: '2026-11-16', to: '2026-11-16', partial: false },
      { from: '2026-11-17', to: '2026-11-17', partial: true },
    ];
    data.kpis = kpiGrid([line(0.9, 0.5), line(0.7, 0.4)]);
    data.previous = kpiGrid([line(0.8, 0.6), line(0.6, 0.3)]);
    const { option, table } = historyChart(data, 'availability', testContext());
    const { series, xAxis, tooltip } = option as {
      series: LineSeries[];
      xAxis: { data: string[] };
      tooltip: { formatter: (params: unknown[]) => string };
    };
    expect(xAxis.data).toEqual(['19/11', '20/11']);
    // The pairs first (settled buckets only), then the running segments in the same order
    // and under the same names: even indices this period, odd ones the previous period.
    expect(series.map((s) => [s.name, s.lineStyle.type])).toEqual([
      ['AGV <01>', undefined],
      ['AGV <01> (charts.previousPeriod)', 'dashed'],
      ['AGV 02', undefined],
      ['AGV 02 (charts.previousPeriod)', 'dashed'],
      ['AGV <01>', 'dashed'],
      ['AGV <01> (charts.previousPeriod)', 'dotted'],
      ['AGV 02', 'dashed'],
      ['AGV 02 (charts.previousPeriod)', 'dotted'],
    ]);
    expect(series[0]?.data).toEqual([0.9, null]);
    expect(series[4]?.data).toEqual([
      0.9,
      { value: 0.5, partial: true, symbol: 'circle', symbolSize: 8, itemStyle: { opacity: 0.6 } },
    ]);
    expect(series[5]?.data[1]).toMatchObject({ value: 0.6, partial: true });
    expect(table.rows.map((row) => [row.from, row.state, row.s0, row.p0])).toEqual([
      ['2026-11-19', 'charts.bucketComplete', 0.9, 0.8],
      ['2026-11-20', 'charts.soFar', 0.5, 0.6],
    ]);
    // Each line once, whether ECharts reports it from its pair or its running segment; a
    // series hidden in the legend (AGV 02's) is not reported and not listed.
    const strip = (html: string) => html.replace(/<span[^>]*><\/span>/g, '');
    const text = tooltip.formatter([
      { seriesIndex: 0, dataIndex: 1 },
      { seriesIndex: 1, dataIndex: 1 },
      { seriesIndex: 4, dataIndex: 1 },
      { seriesIndex: 5, dataIndex: 1 },
    ]);
    expect(strip(text)).toBe(
      '20/11 (charts.soFar)<br/>AGV &lt;01&gt;: <b>50.0%</b> (charts.soFar)' +
        '<br/>AGV &lt;01&gt; (charts.previousPeriod): <b>60.0%</b> (charts.previousSoFar)',
    );
    // A settled bucket reads without a note.
    expect(strip(tooltip.formatter([{ seriesIndex: 2, dataIndex: 0 }]))).toBe(
      '19/11<br/>AGV 02: <b>70.0%</b>',
    );
  });

  it('draws no running segments when every bucket is complete', () => {
    const { option } = historyChart(history(), 'availability', testContext());
    expect((option as { series: LineSeries[] }).series).toHaveLength(4);
  });

  it('labels the combined series', () => {
    const data = history();
    data.series = [{ vehicleId: null, name: null }];
    const { option } = historyChart(data, 'availability', testContext());
    expect((option as { series: LineSeries[] }).series[0]?.name).toBe('charts.combinedEntry');
  });

  it('knows an empty history', () => {
    const data = history();
    expect(historyIsEmpty(data)).toBe(false);
    const idle = () => kpis({ plannedSeconds: 0, ordersFinished: 0 });
    data.kpis = kpiGrid([
      [idle(), idle(), idle()],
      [idle(), idle(), idle()],
    ]);
    expect(historyIsEmpty(data)).toBe(true);
  });

  it('knows a history whose buckets recorded nothing, as the API sends them (null figures)', () => {
    const data = history();
    const grid = kpiGrid([[kpis(), kpis()]]);
    data.kpis = { ...grid, plannedSeconds: [[null, null]], ordersFinished: [[null, null]] };
    expect(historyIsEmpty(data)).toBe(true);
  });
});

describe('buckets', () => {
  it('computes ISO weeks across the year boundary', () => {
    expect(isoWeek('2026-11-19')).toBe(47);
    expect(isoWeek('2027-01-01')).toBe(53);
    expect(isoWeek('2026-01-01')).toBe(1);
    expect(isoWeek('2024-12-30')).toBe(1);
  });

  it('labels days, weeks and months in the user language', () => {
    const de = testContext('de');
    expect(bucketLabel('2026-11-19', 'day', de)).toBe('19.11.');
    expect(bucketLabel('2026-11-16', 'week', de)).toBe('productivity.weekLabel {"week":47}');
    expect(bucketLabel('2026-03-01', 'month', de)).toBe('März 2026');
  });
});
