import { describe, expect, it } from 'vitest';
import type { ProcessEntry } from '../../api/analytics-processes';
import { bucketLabels, formatPreciseDuration } from '../../components/charts/chartParts';
import { kpiTexts } from '../../components/charts/kpiTexts';
import { cellText, signedCount } from '../../components/tables/cellText';
import { testContext } from '../../test/chartContext';
import { actionsChart } from './actionsCharts';
import {
  cycleHistogramChart,
  cyclePercentilesChart,
  histogramBuckets,
  occupiedSpan,
  outcomesChart,
} from './processesCharts';
import { emptyFigures, sampleActionRow, sampleWorkflowRow } from './testFigures';
import { workflowCycleChart, workflowsTable } from './workflowCharts';

type Series = { name: string; data: unknown[]; itemStyle?: { color: string } };

const edges = [0, 60, 120, 240, 480];

function entry(
  name: string | null,
  finished: number,
  failed: number,
  cancelled: number,
): ProcessEntry {
  const current = emptyFigures([0, 2, 5, 1, 0]);
  current.outcomes = {
    finished,
    failed,
    cancelled,
    total: finished + failed + cancelled,
    successRate: finished / (finished + failed + cancelled),
  };
  current.cycle = {
    count: finished,
    p50Seconds: 130,
    p90Seconds: 200,
    p95Seconds: 230,
    maxSeconds: 300,
    meanSeconds: 140,
  };
  current.times.waitingSeconds = 3600;
  return { vehicleId: name ? 1 : null, name, current, previous: emptyFigures([0, 1, 0, 0, 0]) };
}

describe('processes analysis transforms', () => {
  it('labels histogram buckets as duration ranges, the last open above', () => {
    expect(bucketLabels([0, 60, 3600], 'en')).toEqual([
      '0 s – 1 min',
      '1 min – 1 h 00 min',
      '≥ 1 h 00 min',
    ]);
  });

  it('keeps seconds in short durations so cycle times stay apart', () => {
    expect(formatPreciseDuration(4.25, 'de')).toBe('4,3 s');
    expect(formatPreciseDuration(45, 'en')).toBe('45 s');
    expect(formatPreciseDuration(120, 'en')).toBe('2 min');
    expect(formatPreciseDuration(185.2, 'de')).toBe('3 min 05 s');
    expect(formatPreciseDuration(7500, 'en')).toBe('2 h 05 min');
  });

  it('shows only the buckets that have orders in either period', () => {
    expect(occupiedSpan([0, 0, 3, 0, 1, 0], [0, 2, 0, 0, 0, 0])).toEqual({ first: 1, last: 4 });
    expect(occupiedSpan([0, 0], [0])).toEqual({ first: 0, last: -1 });
    // The server's bucket of each bar drawn (a bar's drill-down asks for it).
    expect(
      histogramBuckets({
        current: emptyFigures([0, 0, 3, 0, 1, 0]),
        previous: emptyFigures([0, 2, 0, 0, 0, 0]),
      }),
    ).toEqual([1, 2, 3, 4]);
    const none = { current: emptyFigures([0, 0]), previous: emptyFigures([0]) };
    expect(histogramBuckets(none)).toEqual([]);
    const model = cycleHistogramChart(
      {
        histogramEdges: edges,
        current: emptyFigures([0, 2, 5, 1, 0]),
        previous: emptyFigures([0, 1, 0, 0, 0]),
      },
      testContext(),
    );
    const series = (model.option as { series: Series[] }).series;
    expect(series[0]?.data).toEqual([2, 5, 1]);
    expect(series[1]?.data).toEqual([1, 0, 0]);
    expect(model.table.rows).toEqual([
      { bucket: '1 min – 2 min', current: 2, previous: 1 },
      { bucket: '2 min – 4 min', current: 5, previous: 0 },
      { bucket: '4 min – 8 min', current: 1, previous: 0 },
    ]);
  });

  it('stacks outcomes per vehicle in the outcome colours and names the combined entry', () => {
    const model = outcomesChart([entry('AGV 01', 8, 1, 1), entry(null, 20, 3, 2)], testContext());
    const series = (model.option as { series: Series[] }).series;
    expect(series.map((s) => s.name)).toEqual([
      'processes.outcome.finished',
      'processes.outcome.failed',
      'processes.outcome.cancelled',
    ]);
    expect(series.map((s) => s.itemStyle?.color)).toEqual(['#2f9e44', '#e03131', '#868e96']);
    expect(series[1]?.data).toEqual([1, 3]);
    expect(model.table.rows[1]).toMatchObject({
      name: 'charts.combinedEntry',
      finished: 20,
      successRate: 0.8,
    });
  });

  it('puts p50/p90/p95 per vehicle in the chart and the max, paused and waiting time in the table', () => {
    const model = cyclePercentilesChart([entry('AGV 01', 8, 1, 1)], testContext());
    expect((model.option as { series: Series[] }).series.map((s) => s.data)).toEqual([
      [130],
      [200],
      [230],
    ]);
    expect(model.table.rows[0]).toMatchObject({
      count: 8,
      max: 300,
      waiting: 3600,
      previousP50: null,
    });
  });
});

describe('workflows and actions transforms', () => {
  const workflow = sampleWorkflowRow;

  it('keeps the server order of the workflows and their previous period', () => {
    const model = workflowCycleChart(
      [workflow, { ...workflow, workflow: 'REPLENISH' }],
      testContext(),
    );
    expect((model.option as { xAxis: { data: string[] } }).xAxis.data).toEqual([
      'TRANSPORT_A',
      'REPLENISH',
    ]);
    expect(workflowsTable([workflow], testContext()).rows[0]).toEqual({
      workflow: 'TRANSPORT_A',
      orders: 10,
      successRate: 0.9,
      p50: 140,
      p90: 170,
      previousOrders: 4,
      ordersTrend: 6,
      previousSuccessRate: 1,
      previousP50: 150,
    });
  });

  it('leaves the orders trend empty when the previous period recorded nothing', () => {
    const uncompared = workflowsTable([workflow], testContext(), { compared: false });
    expect(uncompared.rows[0]).toMatchObject({ previousOrders: 4, ordersTrend: null });
    const model = workflowCycleChart([workflow], testContext(), { compared: false });
    expect(model.table.rows[0]).toMatchObject({ ordersTrend: null });
  });

  it('splits action counts into finished and failed, with the failure rate on the right axis', () => {
    const action = sampleActionRow;
    const model = actionsChart([action], testContext());
    const series = (model.option as { series: (Series & { yAxisIndex?: number })[] }).series;
    expect(series.map((s) => s.data)).toEqual([[96], [4], [0.04]]);
    expect(series[2]?.yAxisIndex).toBe(1);
    expect(model.table.rows[0]).toMatchObject({
      actionType: 'pick',
      failed: 4,
      wait: 40,
      previousFailureRate: null,
    });
  });
});

describe('cell and KPI texts in the user language', () => {
  it('formats list cells in German and English, null as a dash', () => {
    expect(cellText(1234.5, 'metres', 'de')).toBe('1.234,5 m');
    expect(cellText(1234.5, 'metres', 'en')).toBe('1,234.5 m');
    expect(cellText(0.9181, 'share', 'de')).toBe('91,8\u00a0%');
    expect(cellText(null, 'duration', 'de')).toBe('–');
    expect(cellText(135, 'duration', 'en')).toBe('2 min 15 s');
    expect(cellText('2026-11-21T10:00:00Z', 'dateTime', 'de')).toMatch(/^21\.11\.2026, /);
    expect(signedCount(1151, 'de')).toBe('+1.151');
    expect(signedCount(-3, 'en')).toBe('−3');
    expect(signedCount(0, 'en')).toBe('±0');
  });

  it('gives value, change and previous value of a KPI, a share change in points', () => {
    const share = kpiTexts({
      value: 0.918,
      previous: 0.953,
      unit: 'share',
      higherIsBetter: true,
      language: 'de',
      noData: '–',
    });
    expect(share.value).toBe('91,8\u00a0%');
    expect(share.deltaText).toBe('−3,5 Pp.');
    expect(share.previousText).toBe('95,3\u00a0%');
    expect(share.trend).toMatchObject({ direction: 'down', good: false });
    const duration = kpiTexts({
      value: 130,
      previous: null,
      unit: 'duration',
      higherIsBetter: false,
      language: 'en',
      noData: '–',
    });
    expect(duration).toEqual({
      value: '2 min 10 s',
      trend: null,
      deltaText: undefined,
      previousText: undefined,
    });
    expect(
      kpiTexts({
        value: null,
        previous: 3,
        unit: 'integer',
        higherIsBetter: false,
        language: 'en',
        noData: '–',
      }).value,
    ).toBe('–');
  });
});
