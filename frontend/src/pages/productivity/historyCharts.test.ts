import { describe, expect, it } from 'vitest';
import type { HistoryPoint, ProductivityHistory } from '../../api/analytics';
import { bucketLabel, historyChart, historyIsEmpty, isoWeek } from './historyCharts';
import { kpis, states, testContext } from './testData';

function point(from: string, availability: number | null, ordersFinished = 10): HistoryPoint {
  return { from, to: from, states: states(), kpis: kpis({ availability, ordersFinished }) };
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
    series: [
      {
        vehicleId: 1,
        name: 'AGV 01',
        points: [point('2026-11-19', 0.9), point('2026-11-20', null), point('2026-11-21', 0.95)],
        previousPoints: [
          point('2026-11-16', 0.8),
          point('2026-11-17', 0.85),
          point('2026-11-18', 0.9),
        ],
      },
      {
        vehicleId: 2,
        name: 'AGV 02',
        points: [point('2026-11-19', 0.7), point('2026-11-20', 0.75), point('2026-11-21', 0.8)],
        previousPoints: [
          point('2026-11-16', 0.6),
          point('2026-11-17', 0.65),
          point('2026-11-18', 0.7),
        ],
      },
    ],
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
    data.series = [
      { ...(data.series[0] as ProductivityHistory['series'][number]), vehicleId: null, name: null },
    ];
    const { option } = historyChart(data, 'availability', testContext());
    expect((option as { series: LineSeries[] }).series[0]?.name).toBe('productivity.combined');
  });

  it('knows an empty history', () => {
    const data = history();
    expect(historyIsEmpty(data)).toBe(false);
    for (const line of data.series) {
      line.points = line.points.map((p) => ({
        ...p,
        kpis: kpis({ plannedSeconds: 0, ordersFinished: 0 }),
      }));
    }
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
    expect(bucketLabel('2026-11-16', 'week', de)).toBe('productivity.weekLabel{"week":47}');
    expect(bucketLabel('2026-03-01', 'month', de)).toBe('März 2026');
  });
});
