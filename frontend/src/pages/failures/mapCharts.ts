import { cellArea, cellCentre, type ErrorPoint, type MapLayer } from '../../api/analytics-failures';
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

// Both maps' grids in px (no `containLabel`), so that the plots are drawn to scale and side by
// side at one scale: a legend or colour scale above, metre labels ("1.000 m") left and below.
const MAP_MARGINS: PlotMargins = { left: 60, right: 16, top: 40, bottom: 28 };

/** The metre axes of a map: its bounds and a track cell's margin (the same on both maps). */
function mapAxes(layer: MapLayer, ctx: ChartContext) {
  const { bounds, track } = layer;
  const margin = track.cellSize;
  const xAxis = metreAxis(ctx, bounds.minX - margin, bounds.maxX + margin);
  const yAxis = metreAxis(ctx, bounds.minY - margin, bounds.maxY + margin);
  const scale = { aspect: (xAxis.max - xAxis.min) / (yAxis.max - yAxis.min), margins: MAP_MARGINS };
  return { xAxis, yAxis, scale };
}

/** The driven track's cell centres in grey: the site layout under the errors. */
function trackSeries(layer: MapLayer, ctx: ChartContext) {
  const { track } = layer;
  return {
    name: ctx.t('failures.track'),
    type: 'scatter',
    data: track.cells.map(([column, row]) => cellCentre(track, column, row)),
    symbol: 'rect',
    symbolSize: 5,
    silent: true,
    itemStyle: { color: ctx.theme.axisLine, opacity: 0.6 },
    tooltip: { show: false },
  };
}

/** The driven track (grey) under the error points (a series per type). */
export function errorMapChart(layer: MapLayer, ctx: ChartContext): ChartModel {
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
  const { xAxis, yAxis, scale } = mapAxes(layer, ctx);
  return {
    scale,
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
        trackSeries(layer, ctx),
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

/** A density cell's item: the drill-down's `[column, row, count]`, then its centre in metres. */
type DensityItem = [number, number, number, number, number];

/** What ECharts gives a custom series' `renderItem` (the part used here). */
export interface CellApi {
  value: (dimension: number) => number | string;
  coord: (point: [number, number]) => number[];
  style: () => Record<string, unknown>;
}

/**
 * The density grid's cells as rectangles on the map's metre axes, over the driven track,
 * coloured by their count: the same area, at the same scale, as the error map beside it.
 * A cell's item begins with `[column, row, count]`, the drill-down's cell.
 */
export function densityChart(layer: MapLayer, ctx: ChartContext): ChartModel {
  const { density } = layer;
  const { xAxis, yAxis, scale } = mapAxes(layer, ctx);
  const max = density.cells.reduce((top, [, , count]) => Math.max(top, count), 1);
  // A cell's centre in whole metres (tenths for cells under 2 m) names it in the tooltip.
  const metres = (value: number) =>
    formatNumber(value, ctx.language, { maximumFractionDigits: density.cellSize < 2 ? 1 : 0 });
  return {
    scale,
    option: {
      textStyle: { color: ctx.theme.text },
      grid: MAP_MARGINS,
      tooltip: {
        trigger: 'item',
        backgroundColor: ctx.theme.tooltipBackground,
        textStyle: { color: ctx.theme.text },
        confine: true,
        formatter: ({ value }: { value?: number[] }) => {
          if (!value) {
            return '';
          }
          const [column = 0, row = 0, count = 0] = value;
          const [x, y] = cellCentre(density, column, row);
          return `x ${metres(x)} m, y ${metres(y)} m<br/>${ctx.t('failures.count')}: ${formatNumber(count, ctx.language)}`;
        },
      },
      xAxis,
      yAxis,
      // The colour scale sits above the plot, as the error map's legend does.
      visualMap: {
        min: 0,
        max,
        seriesIndex: 1,
        dimension: 2,
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
      series: [
        trackSeries(layer, ctx),
        {
          name: ctx.t('failures.count'),
          type: 'custom',
          z: 3, // above the track
          // [column, row, count] (the drill-down's cell), then the cell's centre in metres:
          // the axes' dimensions.
          data: density.cells.map(
            ([column, row, count]): DensityItem => [
              column,
              row,
              count,
              ...cellCentre(density, column, row),
            ],
          ),
          encode: { x: 3, y: 4, tooltip: 2 },
          renderItem: (_: unknown, api: CellApi) => {
            const { x0, x1, y0, y1 } = cellArea(
              density,
              Number(api.value(0)),
              Number(api.value(1)),
            );
            const [left = 0, bottom = 0] = api.coord([x0, y0]);
            const [right = 0, top = 0] = api.coord([x1, y1]);
            const shape = { x: left, y: top, width: right - left, height: bottom - top };
            return { type: 'rect', shape, style: { ...api.style(), opacity: 0.85 } };
          },
        },
      ],
    },
    table: {
      columns: [
        { key: 'x', label: 'x (m)', format: 'decimal' },
        { key: 'y', label: 'y (m)', format: 'decimal' },
        { key: 'count', label: ctx.t('failures.count'), format: 'integer' },
      ],
      rows: densestCells(layer).map(([column, row, count]) => {
        const [x, y] = cellCentre(density, column, row);
        return { x, y, count };
      }),
    },
  };
}
