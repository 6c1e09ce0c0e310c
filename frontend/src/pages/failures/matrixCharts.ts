import type { FailureMatrixResult, MatrixCell } from '../../api/analytics-failures';
import type { ChartContext, ChartModel, TableColumn, TableRow } from '../../components/charts';
import { categoryAxis, narrowLabels } from '../../components/charts/chartParts';
import { formatDateTime, formatNumber } from '../../lib/format';
import { LEVEL_COLORS, worstLevel } from './levels';

/** Pure transform of failures/overview: error types × vehicles, counts on a colour scale. */

interface CellDatum {
  value: [number, number, number];
  cell: MatrixCell;
}

/** What ECharts tells a series' `labelLayout` about a label (what is read here). */
interface LabelLayout {
  labelRect: { width: number; height: number };
  rect: { width: number; height: number };
}

// A count in a cell too narrow for it (a phone): a smaller font, and where even that runs into
// a neighbour's ("2021" for 20 and 21), no label; the tooltip and the table have every count.
const NARROW_LABEL = { fontSize: 10, hideOverlap: true };

/** The layout of a cell's label: as it is when it fits with a pixel to spare each side. */
export function cellLabelLayout({ labelRect, rect }: LabelLayout): Partial<typeof NARROW_LABEL> {
  return labelRect.width + 2 <= rect.width && labelRect.height <= rect.height ? {} : NARROW_LABEL;
}

export function matrixCellText(cell: MatrixCell, vehicle: string, ctx: ChartContext): string {
  return [
    `<b>${escapeHtml(cell.errorType)}</b> · ${escapeHtml(vehicle)}`,
    `${ctx.t('failures.count')}: ${formatNumber(cell.count, ctx.language)}`,
    `${ctx.t('failures.worstLevel')}: ${ctx.t(`failures.level.${cell.worstLevel}`)}`,
    `${ctx.t('failures.firstSeen')}: ${formatDateTime(cell.firstSeen, ctx.language, ctx.timeZone)}`,
    `${ctx.t('failures.lastSeen')}: ${formatDateTime(cell.lastSeen, ctx.language, ctx.timeZone)}`,
  ].join('<br/>');
}

/** Error types and descriptions come from the vehicles: never trusted as HTML. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

export function matrixChart(data: FailureMatrixResult, ctx: ChartContext): ChartModel {
  const vehicleNames = data.vehicles.map((vehicle) => vehicle.name);
  const typeNames = data.errorTypes.map((type) => type.errorType);
  const column = new Map(data.vehicles.map((vehicle, index) => [vehicle.vehicleId, index]));
  const row = new Map(typeNames.map((name, index) => [name, index]));
  const cells: CellDatum[] = data.cells.flatMap((cell) => {
    const x = column.get(cell.vehicleId);
    const y = row.get(cell.errorType);
    return x === undefined || y === undefined ? [] : [{ value: [x, y, cell.count], cell }];
  });
  const counts = new Map(
    data.cells.map((cell) => [`${cell.errorType}\u0000${cell.vehicleId}`, cell.count]),
  );
  const vehicleColumns: TableColumn[] = data.vehicles.map((vehicle) => ({
    key: `vehicle-${vehicle.vehicleId}`,
    label: vehicle.name,
    format: 'integer',
  }));
  const rows: TableRow[] = data.errorTypes.map((type) => {
    const level = worstLevel(type.levels);
    const tableRow: TableRow = {
      errorType: type.errorType,
      level: level ? ctx.t(`failures.level.${level}`) : '',
      count: type.count,
      firstSeen: type.firstSeen,
      lastSeen: type.lastSeen,
    };
    for (const vehicle of data.vehicles) {
      tableRow[`vehicle-${vehicle.vehicleId}`] =
        counts.get(`${type.errorType}\u0000${vehicle.vehicleId}`) ?? 0;
    }
    return tableRow;
  });
  return {
    option: {
      textStyle: { color: ctx.theme.text },
      grid: { left: 8, right: 16, top: 16, bottom: 64, containLabel: true },
      tooltip: {
        backgroundColor: ctx.theme.tooltipBackground,
        textStyle: { color: ctx.theme.text },
        confine: true,
        formatter: (params: { data?: CellDatum }) =>
          params.data
            ? matrixCellText(params.data.cell, vehicleNames[params.data.value[0]] ?? '', ctx)
            : '',
      },
      xAxis: {
        ...categoryAxis(ctx, vehicleNames, vehicleNames.length > 6 ? 45 : 0),
        splitArea: { show: true },
      },
      yAxis: { ...categoryAxis(ctx, typeNames), inverse: true, splitArea: { show: true } },
      ...narrowLabels({ x: true, y: true }),
      visualMap: {
        min: 0,
        max: Math.max(1, data.maxCount),
        calculable: true,
        orient: 'horizontal',
        left: 'center',
        bottom: 0,
        itemHeight: 120,
        textStyle: { color: ctx.theme.mutedText },
        inRange: { color: ['#fff5f5', LEVEL_COLORS.WARNING, LEVEL_COLORS.CRITICAL] },
      },
      series: [
        {
          name: ctx.t('failures.count'),
          type: 'heatmap',
          data: cells,
          label: {
            show: vehicleNames.length <= 12,
            formatter: (params: { data?: CellDatum }) =>
              params.data ? formatNumber(params.data.value[2], ctx.language) : '',
          },
          labelLayout: cellLabelLayout,
          emphasis: { itemStyle: { borderColor: ctx.theme.text, borderWidth: 1 } },
        },
      ],
    },
    table: {
      columns: [
        { key: 'errorType', label: ctx.t('failures.errorType'), format: 'text' },
        { key: 'level', label: ctx.t('failures.worstLevel'), format: 'text' },
        { key: 'count', label: ctx.t('failures.count'), format: 'integer' },
        {
          key: 'firstSeen',
          label: ctx.t('failures.firstSeen'),
          format: 'dateTime',
          timeZone: ctx.timeZone,
        },
        {
          key: 'lastSeen',
          label: ctx.t('failures.lastSeen'),
          format: 'dateTime',
          timeZone: ctx.timeZone,
        },
        ...vehicleColumns,
      ],
      rows,
    },
  };
}
