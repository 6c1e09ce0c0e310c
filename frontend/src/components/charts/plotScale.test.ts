import { describe, expect, it } from 'vitest';
import { scaledFrame } from './plotScale';

const margins = { left: 60, right: 16, top: 40, bottom: 28 };

describe('scaledFrame', () => {
  it('makes the chart as tall as keeps a metre across as long as a metre up', () => {
    // 500 px across for a plot twice as wide as tall: 250 px up, plus the margins.
    expect(scaledFrame(576, { aspect: 2, margins })).toEqual({ height: 318, grid: margins });
  });

  it('narrows the plot, centred, where the chart may grow no taller', () => {
    // 1,924 px across would need 962 px up; 640 px leave 572, so the plot is 1,144 px wide.
    const frame = scaledFrame(2000, { aspect: 2, margins });
    expect(frame?.height).toBe(640);
    const { height, grid } = frame ?? { height: 0, grid: margins };
    expect(grid).toEqual({ ...margins, left: 60 + 390, right: 16 + 390 });
    expect((2000 - grid.left - grid.right) / (height - grid.top - grid.bottom)).toBe(2);
  });

  it('leaves the height to the chart for an aspect that is no ratio', () => {
    for (const aspect of [0, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(scaledFrame(576, { aspect, margins })).toBeNull();
    }
  });

  it('keeps a readable height for a long, narrow site', () => {
    expect(scaledFrame(576, { aspect: 20, margins })?.height).toBe(160);
  });
});
