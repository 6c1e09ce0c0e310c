import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../i18n';
import EChartCanvas from './EChartCanvas';

// jsdom has no canvas: the chart is a recorder of the options it is given.
const setOption = vi.fn();
vi.mock('./echarts', () => ({
  echarts: {
    init: () => ({
      setOption,
      on: () => undefined,
      resize: () => undefined,
      dispose: () => undefined,
    }),
  },
}));

const REDUCED = '(prefers-reduced-motion: reduce)';
const realMatchMedia = window.matchMedia;
const realResizeObserver = globalThis.ResizeObserver;

function systemAsks({ reducedMotion }: { reducedMotion: boolean }) {
  window.matchMedia = (query: string) =>
    ({
      ...realMatchMedia(query),
      matches: reducedMotion && query === REDUCED,
      media: query,
    }) as MediaQueryList;
}

function drawChart() {
  createI18n('en');
  render(
    <MantineProvider>
      <EChartCanvas
        ariaLabel="Orders"
        option={{ xAxis: { type: 'category' }, yAxis: {}, series: [{ type: 'bar', data: [1, 2] }] }}
      />
    </MantineProvider>,
  );
  const [option] = setOption.mock.lastCall ?? [];
  return option as Record<string, unknown>;
}

/** The chart's container as wide as `width` px, reported at once as ResizeObserver would. */
function containerWidth(width: number) {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(width);
  globalThis.ResizeObserver = class {
    constructor(private readonly report: () => void) {}
    observe() {
      this.report(); // inside render's act: flushed with it
    }
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

describe('EChartCanvas', () => {
  beforeEach(() => setOption.mockClear());
  afterEach(() => {
    vi.restoreAllMocks();
    window.matchMedia = realMatchMedia;
    globalThis.ResizeObserver = realResizeObserver;
  });

  it('draws the chart at once, without animation, when the system asks for reduced motion', () => {
    systemAsks({ reducedMotion: true });
    const option = drawChart();
    expect(option.animation).toBe(false);
    expect(setOption).toHaveBeenCalledTimes(1);
  });

  it("names the chart for screen readers as the page does, not in ECharts' English", () => {
    systemAsks({ reducedMotion: false });
    const option = drawChart();
    expect(option.aria).toEqual({ enabled: true, label: { description: 'Orders' } });
  });

  it('lets the chart animate otherwise', () => {
    systemAsks({ reducedMotion: false });
    const option = drawChart();
    expect(option).not.toHaveProperty('animation');
    expect(option.series).toEqual([expect.objectContaining({ type: 'bar', data: [1, 2] })]);
  });

  it('draws a map to scale: the height follows the width, the grid keeps the plot to scale', () => {
    containerWidth(2000);
    createI18n('en');
    const margins = { left: 60, right: 16, top: 40, bottom: 28 };
    const { getByRole } = render(
      <MantineProvider>
        <EChartCanvas
          ariaLabel="Error positions"
          option={{ grid: margins, xAxis: {}, yAxis: {}, series: [] }}
          scale={{ aspect: 2, margins }}
        />
      </MantineProvider>,
    );
    expect(getByRole('img').style.height).toBe('640px');
    const [option] = setOption.mock.lastCall ?? [];
    expect((option as { grid: unknown }).grid).toEqual({ ...margins, left: 450, right: 406 });
  });
});
