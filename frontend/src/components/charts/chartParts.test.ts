import { describe, expect, it } from 'vitest';
import { testContext } from '../../test/chartContext';
import {
  baseCartesian,
  bucketLabels,
  categoryAxis,
  durationAxis,
  durationStep,
  histogramFrame,
  rangeAxis,
} from './chartParts';

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
