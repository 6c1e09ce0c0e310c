import type { ChartContext, TimeTicks } from '../../components/charts';
import { axisStyle } from '../../components/charts';
import { zonedTimeTicks } from '../../components/charts/zonedTicks';
import { browserTimeZone, formatPercent, localeFor } from '../../lib/format';

/** Parts shared by the battery page's lines over time (charge, health). */

/** "35.3%" / "35,3 %" in the user's language; "–" for anything not a number (ECharts' gaps). */
export const percent = (ctx: ChartContext) => (value: unknown) =>
  typeof value === 'number'
    ? formatPercent(value, ctx.language, { digits: 1, minimumDigits: 0 })
    : '–';

/**
 * The ticks of a time axis over `instants` (epoch ms) at round times of the sites' zone;
 * undefined without two instants apart.
 */
export function siteTimeTicks(ctx: ChartContext, instants: number[]): TimeTicks | undefined {
  // A loop, not Math.min(...instants): a year of lines holds more points than arguments fit.
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const at of instants) {
    low = Math.min(low, at);
    high = Math.max(high, at);
  }
  if (!(high > low)) {
    return undefined;
  }
  const zone = ctx.timeZone ?? browserTimeZone();
  return { range: [low, high], ticks: (min, max) => zonedTimeTicks(min, max, zone) };
}

/**
 * A time x axis labelled "21.11., 10:15" / "21/11, 10:15" in the user's language, in the
 * sites' time zone; a tick at midnight there reads the day alone ("21.11."). With
 * `timeTicks`, it is ticked at their round times of that zone (ECharts alone would tick at
 * the browser's).
 */
export function timeAxis(ctx: ChartContext, timeTicks?: TimeTicks) {
  const ticks = timeTicks?.ticks(...timeTicks.range);
  const locale = localeFor(ctx.language);
  const day = { day: '2-digit', month: '2-digit', timeZone: ctx.timeZone } as const;
  const format = new Intl.DateTimeFormat(locale, { ...day, hour: '2-digit', minute: '2-digit' });
  const dayOnly = new Intl.DateTimeFormat(locale, day);
  const clock = new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: ctx.timeZone,
  });
  const label = (value: number) => format.format(new Date(value));
  const tick = (value: number) =>
    clock.format(new Date(value)) === '00:00' ? dayOnly.format(new Date(value)) : label(value);
  return {
    type: 'time',
    ...axisStyle(ctx.theme),
    axisLabel: {
      color: ctx.theme.mutedText,
      hideOverlap: true,
      formatter: tick,
      ...(ticks ? { customValues: ticks } : {}),
    },
    ...(ticks ? { axisTick: { customValues: ticks } } : {}),
    // The tooltip's header is the axis pointer's label: without, ECharts writes the ISO form.
    axisPointer: { label: { formatter: ({ value }: { value: number }) => label(value) } },
  };
}
