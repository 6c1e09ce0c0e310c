import { formatDuration, formatNumber } from '../../lib/format';
import { axisStyle, baseCartesian } from './theme';
import type { ChartContext } from './types';

/** Pieces the processes, failures and battery transforms share (pure). */

/** Outcome colours, app-wide: finished green, failed red, cancelled grey. */
export const OUTCOME_COLORS = {
  finished: '#2f9e44',
  failed: '#e03131',
  cancelled: '#868e96',
} as const;

/**
 * A duration precise enough for cycle times: seconds below ten minutes ("2 min 15 s",
 * "45 s", "1,5 s"), else the app's rounded form ("2 h 05 min"). Order cycles of a few
 * minutes would otherwise all read "2 min".
 */
export function formatPreciseDuration(seconds: number, language: string): string {
  const size = Math.abs(seconds);
  if (size >= 600) {
    return formatDuration(seconds, language);
  }
  const sign = seconds < 0 ? '-' : '';
  if (size < 10) {
    return `${sign}${formatNumber(size, language, { maximumFractionDigits: 1 })} s`;
  }
  const total = Math.round(size);
  const minutes = Math.floor(total / 60);
  const rest = total % 60;
  if (minutes === 0) {
    return `${sign}${formatNumber(rest, language)} s`;
  }
  return rest === 0
    ? `${sign}${formatNumber(minutes, language)} min`
    : `${sign}${formatNumber(minutes, language)} min ${String(rest).padStart(2, '0')} s`;
}

/** "2 min – 4 min" for each bucket; the last bucket is open above ("≥ 30 min"). */
export function bucketLabels(edges: readonly number[], language: string): string[] {
  return edges.map((edge, index) => {
    const next = edges[index + 1];
    return next === undefined
      ? `≥ ${formatPreciseDuration(edge, language)}`
      : `${formatPreciseDuration(edge, language)} – ${formatPreciseDuration(next, language)}`;
  });
}

/** The name of an entry: the vehicle's, or "selected machines" for the combined one (every page). */
export function entryName(name: string | null, ctx: ChartContext): string {
  return name ?? ctx.t('charts.combinedEntry');
}

// Steps a clock reads (seconds): ECharts' own steps are decimal, so an axis of hours
// would step at 10,000 s ("2 h 47 min").
const CLOCK_STEPS = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400,
];
const DAY = 86_400;
const SLANTED_LABEL_WIDTH = 120;

/** The clock step that splits 0..max into at most `ticks` intervals (whole days beyond one). */
export function durationStep(max: number, ticks = 5): number {
  const wanted = max / ticks;
  const step = CLOCK_STEPS.find((candidate) => candidate >= wanted);
  if (step !== undefined) {
    return step;
  }
  const days = wanted / DAY;
  const magnitude = 10 ** Math.floor(Math.log10(days));
  const nice = [1, 2, 5, 10].find((factor) => factor * magnitude >= days) ?? 10;
  return nice * magnitude * DAY;
}

/**
 * A value axis of seconds stepping at clock steps (1 min, 15 min, 1 h, 6 h, 1 d...) up to
 * the largest of `values`; labels as the tiles write durations, in whole days when it
 * steps by days (else one tick would read "24 h 00 min" between "0 s" and "2 d 0 h").
 */
export function durationAxis(ctx: ChartContext, values: readonly (number | null)[]) {
  const max = Math.max(0, ...values.filter((value): value is number => value !== null));
  const step = max > 0 ? durationStep(max) : null;
  const inDays = step !== null && step % DAY === 0;
  return {
    type: 'value',
    ...(step === null ? {} : { min: 0, max: Math.ceil(max / step) * step, interval: step }),
    ...axisStyle(ctx.theme),
    axisLabel: {
      color: ctx.theme.mutedText,
      formatter: (value: number) =>
        inDays
          ? `${formatNumber(value / DAY, ctx.language)} d`
          : formatPreciseDuration(value, ctx.language),
    },
  };
}

export function countAxis(ctx: ChartContext) {
  return {
    type: 'value',
    minInterval: 1,
    ...axisStyle(ctx.theme),
    axisLabel: {
      color: ctx.theme.mutedText,
      formatter: (value: number) => formatNumber(value, ctx.language),
    },
  };
}

/**
 * A category axis; slanted labels are cut to a width with "…" so a long error type or
 * workflow name neither runs into its neighbour nor off the chart (the tooltip and the
 * table keep the whole name).
 */
export function categoryAxis(ctx: ChartContext, data: string[], rotate = 0) {
  const slanted = rotate === 0 ? {} : { width: SLANTED_LABEL_WIDTH, overflow: 'truncate' };
  return {
    type: 'category',
    data,
    ...axisStyle(ctx.theme),
    axisLabel: { color: ctx.theme.mutedText, rotate, hideOverlap: true, ...slanted },
  };
}

// A chart as narrow as on a phone: ECharts' media query reads the chart's own width.
const NARROW_CHART = { maxWidth: 480 };
const NARROW_LABEL_WIDTH = 96;

/**
 * On a chart as narrow as a phone's, the labels of a category x axis stand upright and those
 * of a category y axis stay within 96 px, each cut with "…" (the tooltip and the table keep
 * the whole name). Slanted labels that would overlap are thinned out by ECharts, so a phone
 * lost every other vehicle or error type; upright ones stand only a line apart. Long names on
 * a y axis took half the card and left the plot a sliver. Spread into the option.
 */
export function narrowLabels({
  x = false,
  y = false,
  also = {},
}: {
  x?: boolean;
  y?: boolean;
  /** More of the option for a chart that narrow (ECharts merges it into the option). */
  also?: Record<string, unknown>;
}) {
  const cut = { width: NARROW_LABEL_WIDTH, overflow: 'truncate' };
  return {
    media: [
      {
        query: NARROW_CHART,
        option: {
          ...(x ? { xAxis: { axisLabel: { ...cut, rotate: 90 } } } : {}),
          ...(y ? { yAxis: { axisLabel: cut } } : {}),
          ...also,
        },
      },
    ],
  };
}

/**
 * A category axis of ranges (`bucketLabels`): each label on two lines, from and to, level,
 * so that none is cut; a slanted line of 120 px holds "1 min 30 s – 2 min" no longer.
 */
export function rangeAxis(ctx: ChartContext, ranges: string[]) {
  const axis = categoryAxis(ctx, ranges);
  return {
    ...axis,
    axisLabel: {
      ...axis.axisLabel,
      lineHeight: 14,
      formatter: (range: string) => range.replace(' – ', ' –\n'),
    },
  };
}

// A histogram's count axis is titled above its top: the grid leaves the legend's line and the
// title's, so that the two never touch (on a phone the legend spans the card).
const TITLED_GRID_TOP = 60;

/**
 * The frame of a histogram: the count axis titled with what it counts. The bucket axis has no
 * title: the card's title names the distribution, and at the axis's end a phone cut it off.
 */
export function histogramFrame(ctx: ChartContext, counted: string) {
  const base = baseCartesian(ctx.theme);
  return {
    ...base,
    grid: { ...base.grid, top: TITLED_GRID_TOP },
    tooltip: { ...base.tooltip, valueFormatter: numberFormatter(ctx) },
    yAxis: { ...countAxis(ctx), name: counted },
  };
}

/** Tooltip value formatter: numbers in the user's language. */
export function numberFormatter(ctx: ChartContext, digits = 0) {
  return (value: unknown) =>
    typeof value === 'number'
      ? formatNumber(value, ctx.language, { maximumFractionDigits: digits })
      : '–';
}

export function durationFormatter(ctx: ChartContext) {
  return (value: unknown) =>
    typeof value === 'number' ? formatPreciseDuration(value, ctx.language) : '–';
}

export { baseCartesian };
