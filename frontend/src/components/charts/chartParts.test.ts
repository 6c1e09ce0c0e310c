// @vitest-environment node
// (pure transforms; ECharts' server-side rendering measures text without a canvas)
import * as echarts from 'echarts';
import { describe, expect, it } from 'vitest';
import { reliabilityChart } from '../../pages/failures/analysisCharts';
import { testContext } from '../../test/chartContext';
import {
  baseCartesian,
  bucketLabels,
  categoryAxis,
  durationAxis,
  durationStep,
  histogramFrame,
  narrowLabels,
  rangeAxis,
} from './chartParts';
import type { ChartOption } from './types';

describe('durationAxis', () => {
  it('steps at what a clock reads, not at decimal seconds', () => {
    // Twelve hours: 3 h steps (ECharts' own would be 10,000 s, "2 h 47 min").
    expect(durationStep(12 * 3600)).toBe(3 * 3600);
    expect(durationStep(55 * 60)).toBe(15 * 60);
    expect(durationStep(7 * 60)).toBe(120);
    expect(durationStep(8)).toBe(2);
    // Beyond a day a step: whole days, 1-2-5.
    expect(durationStep(9 * 86_400)).toBe(2 * 86_400);
    expect(durationStep(40 * 86_400)).toBe(10 * 86_400);
  });

  it('runs from zero to the first step above the largest value; no data keeps the default', () => {
    const axis = durationAxis(testContext(), [13.3 * 3600, null, 2 * 3600]);
    expect(axis).toMatchObject({ min: 0, max: 15 * 3600, interval: 3 * 3600 });
    expect(axis.axisLabel.formatter(3 * 3600)).toBe('3 h 00 min');
    expect(durationAxis(testContext(), [null, 0])).not.toHaveProperty('interval');
  });

  it('labels an axis stepping by days in whole days, every tick alike', () => {
    // Downtime up to 3.6 days: one-day steps; "24 h 00 min" once stood between "2 d 0 h"s.
    const axis = durationAxis(testContext(), [3.6 * 86_400]);
    expect(axis).toMatchObject({ max: 4 * 86_400, interval: 86_400 });
    const ticks = [0, 1, 2, 3, 4].map((day) => axis.axisLabel.formatter(day * 86_400));
    expect(ticks).toEqual(['0 d', '1 d', '2 d', '3 d', '4 d']);
  });
});

describe('histogramFrame', () => {
  it('titles the count axis below the legend, and formats counts in the language', () => {
    const ctx = testContext();
    const frame = histogramFrame(ctx, 'Orders');
    expect(frame.yAxis).toMatchObject({ type: 'value', minInterval: 1, name: 'Orders' });
    // The legend's line (top 0) and the title's above the grid, not one line for both.
    expect(frame.grid.top).toBeGreaterThan(baseCartesian(ctx.theme).grid.top + 16);
    expect(frame.legend).toEqual(baseCartesian(ctx.theme).legend);
    expect(frame.tooltip.valueFormatter(1234)).toBe('1,234');
  });
});

describe('categoryAxis', () => {
  it('cuts slanted labels to a width with an ellipsis; level labels stay whole', () => {
    const names = ['laserScannerContaminated', 'pathBlocked'];
    expect(categoryAxis(testContext(), names, 30).axisLabel).toMatchObject({
      rotate: 30,
      overflow: 'truncate',
      width: 120,
    });
    expect(categoryAxis(testContext(), names).axisLabel).not.toHaveProperty('overflow');
  });
});

describe('narrowLabels', () => {
  /** The axes' labels as ECharts applies the option in a chart `width` pixels wide. */
  function labelsAt(width: number, option: ChartOption) {
    const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height: 300 });
    chart.setOption(option);
    const applied = chart.getOption() as {
      xAxis: { axisLabel: object }[];
      yAxis: { axisLabel: object }[];
    };
    chart.dispose();
    return { x: applied.xAxis[0]?.axisLabel, y: applied.yAxis[0]?.axisLabel };
  }

  const names = ['laserScannerContaminated', 'pathBlocked', 'obstacleDetected'];
  const option = {
    xAxis: categoryAxis(testContext(), names, 30),
    yAxis: categoryAxis(testContext(), names),
    series: [{ type: 'bar', data: [1, 2, 3] }],
    ...narrowLabels({ x: true, y: true }),
  };

  it('stands the x labels upright and cuts both axes at 96 px in a chart as narrow as a phone', () => {
    expect(labelsAt(390, option)).toEqual({
      x: expect.objectContaining({ rotate: 90, width: 96, overflow: 'truncate' }),
      y: expect.objectContaining({ width: 96, overflow: 'truncate' }),
    });
  });

  it('leaves the labels as the axes have them in a wider chart', () => {
    const { x, y } = labelsAt(1200, option);
    expect(x).toEqual(expect.objectContaining({ rotate: 30, width: 120 }));
    expect(y).not.toHaveProperty('width');
  });

  it('applies to a chart of the pages (MTBF and MTTR per vehicle)', () => {
    const entry = (vehicleId: number | null) => {
      const figures = { mtbfSeconds: 3600, mttrSeconds: 60 };
      return { vehicleId, name: `AGV ${vehicleId}`, current: figures, previous: figures };
    };
    const entries = [1, 2, 3, 4, 5, 6, 7, 8].map(entry) as Parameters<typeof reliabilityChart>[0];
    const model = reliabilityChart(entries, entry(null) as (typeof entries)[0], testContext());
    expect(labelsAt(390, model.option).x).toEqual(expect.objectContaining({ rotate: 90 }));
    expect(labelsAt(1200, model.option).x).toEqual(expect.objectContaining({ rotate: 30 }));
  });
});

describe('rangeAxis', () => {
  it('writes each range on two lines, level, whole', () => {
    const ranges = bucketLabels([90, 120, 150], 'en');
    const axis = rangeAxis(testContext(), ranges);
    expect(axis.data).toEqual(ranges);
    expect(axis.axisLabel).toMatchObject({ rotate: 0 });
    expect(axis.axisLabel).not.toHaveProperty('overflow');
    expect(ranges.map(axis.axisLabel.formatter)).toEqual([
      '1 min 30 s –\n2 min',
      '2 min –\n2 min 30 s',
      '≥ 2 min 30 s',
    ]);
  });
});
