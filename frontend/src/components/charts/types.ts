import type { EChartsCoreOption } from 'echarts/core';
import type { PlotScale } from './plotScale';

/** An ECharts option object (type only: importing it pulls no ECharts code into a chunk). */
export type ChartOption = EChartsCoreOption;

/**
 * How a table value is shown and exported:
 * - `share`: a fraction 0..1, shown as "96.2%", exported as percent (96.2);
 * - `duration`: seconds, shown as "2 h 05 min", exported as hours (2.08);
 * - `date`: ISO date (YYYY-MM-DD), shown in the user's language, exported as ISO;
 * - `dateTime`: an instant (ISO or epoch ms), shown and exported in the column's
 *   `timeZone` (the site's), exported as "2026-11-24 14:03:12" with the zone in the header.
 */
export type ValueFormat =
  | 'text'
  | 'date'
  | 'dateTime'
  | 'integer'
  | 'decimal'
  | 'share'
  /** A percentage 0..100 (a charge, a depth of discharge, a state of health). */
  | 'percent'
  | 'duration';

export interface TableColumn {
  key: string;
  label: string;
  format: ValueFormat;
  /** Decimals for `decimal` (default 1). */
  digits?: number;
  /** Zone of a `dateTime` column (the site's); the browser's when not given. */
  timeZone?: string;
  /**
   * The column's values are approximate (percentiles from a histogram, product.md section 3):
   * the table view shows "≈" before each value; the CSV keeps the plain number.
   */
  approximate?: boolean;
}

export type TableCell = string | number | null;
export type TableRow = Record<string, TableCell>;

export interface TableData {
  columns: TableColumn[];
  rows: TableRow[];
}

/** What every pure chart transform returns: the chart and the same data as a table. */
export interface ChartModel {
  option: ChartOption;
  table: TableData;
  /** A map drawn to scale: the chart's height follows its width (`plotScale.ts`). */
  scale?: PlotScale;
  /** A time x axis ticked at round times of the sites' zone: ticked again after a zoom. */
  timeTicks?: TimeTicks;
}

/** The span of a time axis' data (epoch ms) and the ticks of a part of it (`zonedTicks.ts`). */
export interface TimeTicks {
  range: [number, number];
  ticks: (min: number, max: number) => number[];
}

export interface ChartTheme {
  scheme: 'light' | 'dark';
  text: string;
  mutedText: string;
  axisLine: string;
  splitLine: string;
  tooltipBackground: string;
  /** Series colours for things without a fixed meaning (vehicles, KPIs). */
  palette: [string, ...string[]];
  /** The previous period (dashed lines, ghost bars). */
  previous: string;
}

/** The inputs every transform takes besides its data. */
export interface ChartContext {
  language: string;
  theme: ChartTheme;
  /** Translate a key (i18next `t`), so transforms stay pure and testable. */
  t: (key: string, options?: Record<string, unknown>) => string;
  /** The sites' time zone for instants in tables and CSV (the browser's when not given). */
  timeZone?: string;
}
