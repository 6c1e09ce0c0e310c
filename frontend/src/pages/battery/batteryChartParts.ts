import type { ChartContext } from '../../components/charts';
import { axisStyle } from '../../components/charts';
import { formatPercent, localeFor } from '../../lib/format';

/** Parts shared by the battery page's lines over time (charge, health). */

/** "35.3%" / "35,3 %" in the user's language; "–" for anything not a number (ECharts' gaps). */
export const percent = (ctx: ChartContext) => (value: unknown) =>
  typeof value === 'number'
    ? formatPercent(value, ctx.language, { digits: 1, minimumDigits: 0 })
    : '–';

/**
 * A time x axis labelled "21.11., 10:15" / "21/11, 10:15" in the user's language, in the
 * sites' time zone; a tick at midnight there reads the day alone ("21.11.").
 */
export function timeAxis(ctx: ChartContext) {
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
    axisLabel: { color: ctx.theme.mutedText, hideOverlap: true, formatter: tick },
    // The tooltip's header is the axis pointer's label: without, ECharts writes the ISO form.
    axisPointer: { label: { formatter: ({ value }: { value: number }) => label(value) } },
  };
}
