import type { TimeTicks } from './types';

/** What `followZoom` uses of a chart: an ECharts instance. */
interface ZoomableChart {
  on(event: 'datazoom', handler: () => void): unknown;
  getOption(): unknown;
  setOption(option: Record<string, unknown>): void;
}

/**
 * After every zoom, ticks the chart's time axis at the ticks of the part it shows (the
 * ticks given with the option would leave a zoomed-in hour without any). `current` gives
 * the chart's ticks at the time, if its axis has any.
 */
export function followZoom(chart: ZoomableChart, current: () => TimeTicks | undefined): void {
  chart.on('datazoom', () => {
    const timeTicks = current();
    const zoom = (chart.getOption() as { dataZoom?: { start?: number; end?: number }[] })
      .dataZoom?.[0];
    if (!timeTicks || !zoom) {
      return;
    }
    // The zoom's window is a share of the axis' data span, in percent.
    const [low, high] = timeTicks.range;
    const at = (percent: number) => low + ((high - low) * percent) / 100;
    const values = timeTicks.ticks(at(zoom.start ?? 0), at(zoom.end ?? 100));
    chart.setOption({
      xAxis: { axisLabel: { customValues: values }, axisTick: { customValues: values } },
    });
  });
}
