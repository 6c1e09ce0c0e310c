import { describe, expect, it } from 'vitest';
import type { ProcessEntry } from '../../api/analytics-processes';
import type { TableColumn } from '../../components/charts';
import { testContext } from '../../test/chartContext';
import { actionsApproximate, actionsChart } from './actionsCharts';
import {
  approximateFormatter,
  isApproximate,
  markApproximate,
  percentileCell,
  processesApproximate,
} from './approximate';
import { cyclePercentilesChart } from './processesCharts';
import { processTileModels } from './processTiles';
import { emptyFigures, sampleActionRow, sampleWorkflowRow } from './testFigures';
import { workflowCycleChart, workflowsApproximate } from './workflowCharts';

type Formatter = (value: unknown) => string;
type Series = { name: string; tooltip?: { valueFormatter?: Formatter } };

/** A vehicle's entry: 8 finished orders, p50 130 s, p90 200 s, p95 230 s, max 300 s. */
function entry(exact: { current?: boolean; previous?: boolean }): ProcessEntry {
  const current = emptyFigures();
  current.cycle = {
    count: 8,
    p50Seconds: 130,
    p90Seconds: 200,
    p95Seconds: 230,
    maxSeconds: 300,
    meanSeconds: 140,
    ...(exact.current === undefined ? {} : { exact: exact.current }),
  };
  current.outcomes = { finished: 8, failed: 2, cancelled: 0, total: 10, successRate: 0.8 };
  current.times = { ...current.times, meanPausedSeconds: 45 };
  const previous = emptyFigures();
  previous.cycle = {
    ...previous.cycle,
    count: 4,
    p50Seconds: 120,
    p90Seconds: 180,
    p95Seconds: 190,
    maxSeconds: 200,
    ...(exact.previous === undefined ? {} : { exact: exact.previous }),
  };
  return { vehicleId: 1, name: 'AGV 01', current, previous };
}

function column(columns: TableColumn[], key: string): TableColumn | undefined {
  return columns.find((candidate) => candidate.key === key);
}

describe('approximate percentiles', () => {
  it('are approximate only when the API says exact: false (absent is exact)', () => {
    expect(isApproximate(false)).toBe(true);
    expect(isApproximate(true)).toBe(false);
    expect(isApproximate(undefined)).toBe(false);
    expect(isApproximate(null)).toBe(false);
  });

  it('put ≈ before a value, never before "no data"', () => {
    expect(markApproximate('12 min', true, true)).toBe('≈ 12 min');
    expect(markApproximate('12 min', true, false)).toBe('12 min');
    expect(markApproximate('–', false, true)).toBe('–');
    expect(percentileCell(135, 'en', true)).toBe('≈ 2 min 15 s');
    expect(percentileCell(185.2, 'de', true)).toBe('≈ 3 min 05 s');
    expect(percentileCell(135, 'en', false)).toBe('2 min 15 s');
    expect(percentileCell(null, 'en', true)).toBe('–');
    const tooltip = approximateFormatter((value) => (typeof value === 'number' ? 'x' : '–'), true);
    expect(tooltip(4)).toBe('≈ x');
    expect(tooltip(null)).toBe('–');
  });

  it('mark the percentile tiles of processes/analysis per period, not max or rates', () => {
    const { current, previous } = entry({ current: false, previous: true });
    const tiles = processTileModels(current, previous, 'en', 'no data');
    const byName = Object.fromEntries(tiles.map((tile) => [tile.name, tile.texts]));
    expect(byName['cycle-p50']).toMatchObject({
      value: '≈ 2 min 10 s',
      previousText: '2 min',
      deltaText: '+10 s',
    });
    expect(byName['cycle-p90']?.value).toBe('≈ 3 min 20 s');
    expect(byName['cycle-p95']?.value).toBe('≈ 3 min 50 s');
    expect(byName['cycle-max']?.value).toBe('5 min');
    expect(byName['success-rate']?.value).toBe('80.0%');
    const older = processTileModels(
      entry({ previous: false }).current,
      entry({ previous: false }).previous,
      'de',
      'keine Daten',
    );
    expect(older[0]?.texts).toMatchObject({ value: '2 min 10 s', previousText: '≈ 2 min' });
  });

  it('leave the tiles plain when the answer carries no flag', () => {
    const { current, previous } = entry({});
    const texts = processTileModels(current, previous, 'en', 'no data').map(
      (tile) => tile.texts.value,
    );
    expect(texts).toEqual([
      '2 min 10 s',
      '3 min 20 s',
      '3 min 50 s',
      '5 min',
      '80.0%',
      'no data',
      '45 s',
    ]);
  });

  it('tell processes/analysis whether any vehicle or period is approximate', () => {
    const exact = entry({ current: true, previous: true });
    expect(processesApproximate({ fleet: exact, entries: [exact, entry({})] })).toBe(false);
    expect(processesApproximate({ fleet: exact, entries: [entry({ previous: false })] })).toBe(
      true,
    );
  });

  it('mark the p50/p90/p95 columns and tooltips of the percentiles chart, the previous p50 by its own flag', () => {
    const model = cyclePercentilesChart(
      [entry({ current: true, previous: true }), entry({ current: false, previous: true })],
      testContext(),
    );
    const columns = model.table.columns;
    expect(['p50', 'p90', 'p95'].map((key) => column(columns, key)?.approximate)).toEqual([
      true,
      true,
      true,
    ]);
    expect(column(columns, 'previousP50')?.approximate).toBe(false);
    expect(column(columns, 'max')?.approximate).toBeUndefined();
    // The CSV keeps plain numbers: the rows hold the seconds.
    expect(model.table.rows[1]).toMatchObject({ p50: 130, p90: 200, previousP50: 120 });
    const series = (model.option as { series: Series[] }).series;
    expect(series[0]?.tooltip?.valueFormatter?.(130)).toBe('≈ 2 min 10 s');
    const exact = cyclePercentilesChart([entry({})], testContext());
    expect(exact.table.columns.some((candidate) => candidate.approximate)).toBe(false);
    const exactSeries = (exact.option as { series: Series[] }).series;
    expect(exactSeries[0]?.tooltip?.valueFormatter?.(130)).toBe('2 min 10 s');
  });

  it('mark every percentile of the workflows when the answer says exact: false', () => {
    const row = sampleWorkflowRow;
    expect(workflowsApproximate({ exact: false })).toBe(true);
    expect(workflowsApproximate({ exact: true })).toBe(false);
    expect(workflowsApproximate({})).toBe(false);
    expect(workflowsApproximate(undefined)).toBe(false);
    const model = workflowCycleChart([row], testContext(), { approximate: true });
    const marked = model.table.columns.filter((candidate) => candidate.approximate);
    expect(marked.map((candidate) => candidate.key)).toEqual(['p50', 'p90', 'previousP50']);
    const tooltip = (model.option as { tooltip: { valueFormatter: Formatter } }).tooltip;
    expect(tooltip.valueFormatter(140)).toBe('≈ 2 min 20 s');
    const plain = workflowCycleChart([row], testContext());
    expect(plain.table.columns.some((candidate) => candidate.approximate)).toBe(false);
    expect(
      (plain.option as { tooltip: { valueFormatter: Formatter } }).tooltip.valueFormatter(140),
    ).toBe('2 min 20 s');
  });

  it('mark the duration percentiles of the actions, not the mean wait', () => {
    const action = sampleActionRow;
    expect(actionsApproximate({ exact: false })).toBe(true);
    expect(actionsApproximate({})).toBe(false);
    const model = actionsChart([action], testContext(), { approximate: true });
    const marked = model.table.columns.filter((candidate) => candidate.approximate);
    expect(marked.map((candidate) => candidate.key)).toEqual(['p50', 'p90']);
    expect(model.table.rows[0]).toMatchObject({ p50: 20, p90: 30, wait: 40 });
  });
});
