import type { ChartTheme } from './types';

/** The vehicle states, in the order of the stacked bars (worst first, like the statusboard). */
export const VEHICLE_STATES = [
  'error',
  'offline',
  'manual',
  'charging',
  'idle',
  'working',
] as const;
export type VehicleState = (typeof VEHICLE_STATES)[number];

/**
 * One colour per state, app-wide (charts, statusboard tiles, legends): offline grey, error
 * red, manual orange, charging blue, working green, idle a light green (available, unused).
 * Deep enough that white text on a statusboard tile meets WCAG AA (tested).
 */
export const STATE_COLORS: Record<VehicleState, string> = {
  offline: '#6b737b',
  error: '#c92a2a',
  manual: '#c4480f',
  charging: '#1971c2',
  working: '#2a7f3c',
  idle: '#b2f2bb',
};

/** Text on a tile of the state's colour, readable on a wall screen (contrast >= 4.5, tested). */
export const STATE_TEXT_COLORS: Record<VehicleState, string> = {
  offline: '#ffffff',
  error: '#ffffff',
  manual: '#ffffff',
  charging: '#ffffff',
  working: '#ffffff',
  idle: '#1b4d24',
};

/**
 * Series colours, one per vehicle of a chart in turn: eight hues told apart by hue or
 * lightness (the brand teal first; no grey, which marks the previous period), so the eight
 * vehicles of a typical site each get their own (`seriesLook` for more).
 */
const PALETTE: [string, ...string[]] = [
  '#059683',
  '#1c7ed6',
  '#f08c00',
  '#9c36b5',
  '#c2255c',
  '#5c940d',
  '#795548',
  '#364fc7',
];

/**
 * The look at `index` of a chart's list (vehicles, error types): the palette's colours in
 * turn, and for each further round of the palette the next of `rounds` (a line type, a
 * symbol), so that no two items of a chart look alike.
 */
export function lookByPosition<Round>(
  palette: readonly [string, ...string[]],
  rounds: readonly [Round, ...Round[]],
  index: number,
): { color: string; round: Round } {
  const round = Math.floor(index / palette.length) % rounds.length;
  return {
    color: palette[index % palette.length] ?? palette[0],
    round: rounds[round] ?? rounds[0],
  };
}

/** A vehicle series' line type and point symbol in each round of the palette. */
interface SeriesRound {
  lineType: 'solid' | 'dashed' | 'dotted';
  symbol: string;
}

const SERIES_ROUNDS: [SeriesRound, ...SeriesRound[]] = [
  { lineType: 'solid', symbol: 'emptyCircle' },
  { lineType: 'dashed', symbol: 'emptyDiamond' },
  { lineType: 'dotted', symbol: 'emptyTriangle' },
];

/**
 * The look of a chart's `index`-th vehicle series (`lookByPosition`): a chart whose line
 * types carry a meaning of their own (the previous period) tells the rounds apart by the
 * symbol only.
 */
export function seriesLook(theme: ChartTheme, index: number) {
  const { color, round } = lookByPosition(theme.palette, SERIES_ROUNDS, index);
  return { color, ...round };
}

export function chartTheme(scheme: 'light' | 'dark'): ChartTheme {
  if (scheme === 'dark') {
    return {
      scheme,
      text: '#c9c9c9',
      mutedText: '#909296',
      axisLine: '#5c5f66',
      splitLine: '#373a40',
      tooltipBackground: '#25262b',
      palette: PALETTE,
      previous: '#909296',
    };
  }
  return {
    scheme,
    text: '#212529',
    mutedText: '#6c757d',
    axisLine: '#adb5bd',
    splitLine: '#e9ecef',
    tooltipBackground: '#ffffff',
    palette: PALETTE,
    previous: '#868e96',
  };
}

/** Axis, grid and tooltip settings shared by the cartesian charts. */
export function baseCartesian(theme: ChartTheme) {
  return {
    textStyle: { color: theme.text },
    grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      backgroundColor: theme.tooltipBackground,
      textStyle: { color: theme.text },
      confine: true,
    },
    legend: { top: 0, type: 'scroll', textStyle: { color: theme.text } },
  };
}

/**
 * The frame of a bar chart: the tooltip shades the hovered category and formats its values
 * with `valueFormatter` (none: each series formats its own).
 */
export function barCartesian(theme: ChartTheme, valueFormatter?: (value: unknown) => string) {
  const base = baseCartesian(theme);
  return {
    ...base,
    tooltip: {
      ...base.tooltip,
      axisPointer: { type: 'shadow' },
      ...(valueFormatter && { valueFormatter }),
    },
  };
}

export function axisStyle(theme: ChartTheme) {
  return {
    axisLine: { lineStyle: { color: theme.axisLine } },
    axisLabel: { color: theme.mutedText },
    splitLine: { lineStyle: { color: theme.splitLine } },
  };
}
