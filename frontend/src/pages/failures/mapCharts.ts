import type { ErrorPoint, MapLayer } from '../../api/analytics-failures';
import type { ChartContext, ChartModel, PlotMargins } from '../../components/charts';
import { axisStyle } from '../../components/charts';
import { formatDateTime, formatNumber } from '../../lib/format';
import { typeStyles } from './levels';
import { escapeHtml } from './matrixCharts';

/** Pure transforms of failures/visualization: the site drawn from the driven track. */

interface PointDatum {
  value: [number, number];
  point: ErrorPoint;
}

export function pointTooltip(point: ErrorPoint, ctx: ChartContext): string {
  return [
    `<b>${escapeHtml(point.errorType)}</b> (${ctx.t(`failures.level.${point.level}`)})`,
    formatDateTime(point.start, ctx.language, ctx.timeZone),
    escapeHtml(point.vehicleName),
    escapeHtml(point.description),
  ].join('<br/>');
}

/** A round step (1, 2 or 5 times a power of ten) giving about `ticks` intervals. */
export function niceStep(span: number, ticks = 5): number {
  const raw = Math.max(span, 1e-9) / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= raw) ?? 10;
  return step * power;
}

/**
 * Metre axis from a multiple of its step to a multiple of its step: the bounds are ticks
 * themselves, so no odd end label ("42 m") crowds the next round one ("40 m").
 */
export function metreAxis(ctx: ChartContext, min: number, max: number) {
  const step = niceStep(max - min);
  return {
    type: 'value',
    min: Math.floor(min / step) * step,
    max: Math.ceil(max / step) * step,
    interval: step,
    ...axisStyle(ctx.theme),
    axisLabel: {
      color: ctx.theme.mutedText,
      hideOverlap: true,
      formatter: (value: number) => `${formatNumber(value, ctx.language)} m`,
    },
  };
}

// The maps' grids in px (no `containLabel`), so that the plot is drawn to scale: a legend or
// colour scale above, metre labels ("1.000 m") left, labels or the axis name below.
const MAP_MARGINS: PlotMargins = { left: 60, right: 16, top: 40, bottom: 28 };
const DENSITY_MARGINS: PlotMargins = { left: 40, right: 24, top: 44, bottom: 44 };

/** Cell centres of the driven track (grey) under the error points (a series per type). */
export function errorMapChart(layer: MapLayer, ctx: ChartContext): ChartModel {
  const { track, bounds } = layer;
  const margin = track.cellSize;
  const trackPoints = track.cells.map(([column, row]) => [
    track.originX + (column + 0.5) * track.cellSize,
    track.originY + (row + 0.5) * track.cellSize,
  ]);
  const byType = new Map<string, PointDatum[]>();
  for (const point of layer.points) {
    const list = byType.get(point.errorType) ?? [];
    list.push({ value: [point.x, point.y], point });
    byType.set(point.errorType, list);
  }
  // Most frequent first: the legend's first page shows the types that make up the map.
  const count = (type: string) => byType.get(type)?.length ?? 0;
  const types = [...byType.keys()].sort((a, b) => count(b) - count(a) || a.localeCompare(b));
  const styles = typeStyles(types);
  const xAxis = metreAxis(ctx, bounds.minX - margin, bounds.maxX + margin);
  const yAxis = metreAxis(ctx, bounds.minY - margin, bounds.maxY + margin);
  return {
    scale: { aspect: (xAxis.max - xAxis.min) / (yAxis.max - yAxis.min), margins: MAP_MARGINS },
    option: {
      textStyle: { color: ctx.theme.text },
      grid: MAP_MARGINS,
      legend: { top: 0, type: 'scroll', data: types, textStyle: { color: ctx.theme.text } },
      tooltip: {
        trigger: 'item',
        backgroundColor: ctx.theme.tooltipBackground,
        textStyle: { color: ctx.theme.text },
        confine: true,
        formatter: (params: { data?: PointDatum | number[] }) =>
          params.data && 'point' in params.data ? pointTooltip(params.data.point, ctx) : '',
      },
      xAxis,
      yAxis,
      series: [
        {
          name: ctx.t('failures.track'),
          type: 'scatter',
          data: trackPoints,
          symbol: 'rect',
          symbolSize: 5,
          silent: true,
          itemStyle: { color: ctx.theme.axisLine, opacity: 0.6 },
          tooltip: { show: false },
        },
        ...types.map((type) => ({
          name: type,
          type: 'scatter',
          data: byType.get(type) ?? [],
          symbol: styles.get(type)?.symbol,
          symbolSize: 9,
          itemStyle: {
            color: styles.get(type)?.color,
            opacity: 0.75,
            borderColor: '#fff',
            borderWidth: 0.5,
          },
        })),
      ],
    },
    table: {
      columns: [
        {
          key: 'start',
          label: ctx.t('failures.start'),
          format: 'dateTime',
          timeZone: ctx.timeZone,
        },
        { key: 'vehicle', label: ctx.t('processes.vehicle'), format: 'text' },
        { key: 'errorType', label: ctx.t('failures.errorType'), format: 'text' },
        { key: 'level', label: ctx.t('failures.levelLabel'), format: 'text' },
        { key: 'description', label: ctx.t('failures.description'), format: 'text' },
        { key: 'x', label: 'x (m)', format: 'decimal' },
        { key: 'y', label: 'y (m)', format: 'decimal' },
      ],
      rows: layer.points.map((point) => ({
        start: point.start,
        vehicle: point.vehicleName,
        errorType: point.errorType,
        level: ctx.t(`failures.level.${point.level}`),
        description: point.description,
        x: point.x,
        y: point.y,
      })),
    },
  };
}

/** The density grid's cells `[column, row, count]`, densest first (the table's order). */
export function densestCells(layer: Pick<MapLayer, 'density'>): [number, number, number][] {
  return [...layer.density.cells].sort((a, b) => b[2] - a[2]);
}

/**
 * The round metres (a multiple of the map axis' step) an axis of `count` grid cells shows,
 * one per cell holding such a multiple, '' for the others: the axis reads 0, 20, 40 m as the
 * map's does, not the cells' centres (6, 11, 15...). A label stands at its cell's centre,
 * at most half a cell from the metre it names.
 */
export function roundCellLabels(
  origin: number,
  cellSize: number,
  count: number,
  language: string,
): string[] {
  const step = niceStep(count * cellSize);
  return Array.from({ length: count }, (_, index) => {
    const start = origin + index * cellSize;
    // `+ 0`: no "-0" for the multiple zero reached from below.
    const round = Math.ceil(start / step - 1e-9) * step + 0;
    return round < start + cellSize ? formatNumber(round, language) : '';
  });
}

/** A category axis of grid cells labelled and ticked at its round metres only. */
function cellAxis(ctx: ChartContext, centres: string[], labels: string[]) {
  const labelled = (index: number) => labels[index] !== '';
  return {
    type: 'category',
    data: centres,
    ...axisStyle(ctx.theme),
    axisTick: { interval: labelled, alignWithLabel: true },
    axisLabel: {
      color: ctx.theme.mutedText,
      interval: labelled,
      formatter: (_: string, index: number) => labels[index] ?? '',
    },
  };
}

/** Errors per grid cell as a heatmap over the same area. */
export function densityChart(layer: MapLayer, ctx: ChartContext): ChartModel {
  const { density } = layer;
  // A cell's centre in whole metres (tenths for cells under 2 m) names it in the tooltip.
  const digits = density.cellSize < 2 ? 1 : 0;
  const centres = (origin: number, count: number) =>
    Array.from({ length: count }, (_, index) =>
      formatNumber(origin + (index + 0.5) * density.cellSize, ctx.language, {
        maximumFractionDigits: digits,
      }),
    );
  const columns = centres(density.originX, density.columns);
  const rows = centres(density.originY, density.rows);
  const axisLabels = (origin: number, count: number) =>
    roundCellLabels(origin, density.cellSize, count, ctx.language);
  const max = density.cells.reduce((top, [, , count]) => Math.max(top, count), 1);
  return {
    // Square cells: the grid's columns over its rows.
    scale: { aspect: density.columns / density.rows, margins: DENSITY_MARGINS },
    option: {
      textStyle: { color: ctx.theme.text },
      // The colour scale sits above the grid, apart from the x axis and its name below.
      grid: DENSITY_MARGINS,
      tooltip: {
        backgroundColor: ctx.theme.tooltipBackground,
        textStyle: { color: ctx.theme.text },
        confine: true,
        formatter: (params: { value?: [number, number, number] }) =>
          params.value
            ? `x ${columns[params.value[0]]} m, y ${rows[params.value[1]]} m<br/>${ctx.t('failures.count')}: ${formatNumber(params.value[2], ctx.language)}`
            : '',
      },
      xAxis: {
        ...cellAxis(ctx, columns, axisLabels(density.originX, density.columns)),
        name: 'x (m)',
        nameLocation: 'middle',
        nameGap: 28,
        splitArea: { show: false },
      },
      yAxis: {
        ...cellAxis(ctx, rows, axisLabels(density.originY, density.rows)),
        name: 'y (m)',
        nameLocation: 'end',
      },
      visualMap: {
        min: 0,
        max,
        calculable: false,
        orient: 'horizontal',
        right: 8,
        top: 0,
        itemHeight: 120,
        itemWidth: 12,
        text: [formatNumber(max, ctx.language), '0'],
        textStyle: { color: ctx.theme.mutedText },
        inRange: { color: ['#fff3bf', '#f59f00', '#e03131', '#a61e1e'] },
      },
      series: [{ name: ctx.t('failures.count'), type: 'heatmap', data: density.cells }],
    },
    table: {
      columns: [
        { key: 'x', label: 'x (m)', format: 'decimal' },
        { key: 'y', label: 'y (m)', format: 'decimal' },
        { key: 'count', label: ctx.t('failures.count'), format: 'integer' },
      ],
      rows: densestCells(layer).map(([column, row, count]) => ({
        x: density.originX + (column + 0.5) * density.cellSize,
        y: density.originY + (row + 0.5) * density.cellSize,
        count,
      })),
    },
  };
}
