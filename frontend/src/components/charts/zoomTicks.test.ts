// @vitest-environment node
import * as echarts from 'echarts';
import { describe, expect, it } from 'vitest';
import { siteTimeTicks, timeAxis } from '../../pages/battery/batteryChartParts';
import { testContext } from '../../test/chartContext';
import { followZoom } from './zoomTicks';

/** The time axis' labels of a real chart (server-side rendering), left to right. */
function axisLabels(chart: echarts.ECharts): string[] {
  const svg = chart.renderToSVGString();
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)]
    .map((match) => match[1] ?? '')
    .filter((text) => /^\d\d\.\d\d\./.test(text));
}

describe('a time axis in the sites’ zone', () => {
  // Hourly charges over Monday 23 to Sunday 29 November 2026, a site in Berlin.
  const ctx = { ...testContext('de'), timeZone: 'Europe/Berlin' };
  const start = Date.parse('2026-11-22T23:00:00Z');
  const points = Array.from({ length: 7 * 24 }, (_, hour) => [start + hour * 3_600_000, 50]);
  const timeTicks = siteTimeTicks(
    ctx,
    points.map(([at]) => at ?? 0),
  );

  function drawn() {
    const chart = echarts.init(null, null, {
      renderer: 'svg',
      ssr: true,
      width: 1200,
      height: 300,
    });
    chart.setOption({
      animation: false,
      xAxis: timeAxis(ctx, timeTicks),
      yAxis: { type: 'value' },
      dataZoom: [{ type: 'inside' }],
      series: [{ type: 'line', data: points }],
    });
    followZoom(chart, () => timeTicks);
    return chart;
  }

  it("is ticked at the site's midnights, each labelled with its day", () => {
    const chart = drawn();
    expect(axisLabels(chart)).toEqual([
      '23.11.',
      '24.11.',
      '25.11.',
      '26.11.',
      '27.11.',
      '28.11.',
      '29.11.',
    ]);
    chart.dispose();
  });

  it('is ticked again for the part a zoom shows: every 6 hours of the site over a day and a half', () => {
    const chart = drawn();
    // 40 % to 62 % of the week's span: Wednesday 25 November 18:48 to Friday 27 November 07:32.
    chart.dispatchAction({ type: 'dataZoom', start: 40, end: 62 });
    expect(axisLabels(chart)).toEqual([
      '26.11.',
      '26.11., 06:00',
      '26.11., 12:00',
      '26.11., 18:00',
      '27.11.',
      '27.11., 06:00',
    ]);
    chart.dispose();
  });
});
