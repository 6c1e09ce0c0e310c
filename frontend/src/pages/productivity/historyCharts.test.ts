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

  it('tables every bucket with current and previous values', () => {
    const { table } = historyChart(history(), 'orders', testContext());
    expect(table.columns.map((c) => c.key)).toEqual(['from', 'to', 's0', 'p0', 's1', 'p1']);
    expect(table.columns[2]?.format).toBe('integer');
    expect(table.rows[1]).toEqual({
      from: '2026-11-20',
      to: '2026-11-20',
      s0: 10,
      p0: 10,
      s1: 10,
      p1: 10,
    });
  });

  it('labels the combined series', () => {
    const data = history();
    data.series = [{ vehicleId: null, name: null }];
    const { option } = historyChart(data, 'availability', testContext());
    expect((option as { series: LineSeries[] }).series[0]?.name).toBe('productivity.combined');
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
