/**
 * Shared chart foundation (ECharts 6, tree-shaken, lazy). Usage:
 *
 * 1. Write a PURE transform per chart, tested in vitest without a DOM:
 *      export function ordersChart(data: MyApiShape, ctx: ChartContext): ChartModel
 *    returning `{ option, table }` (ECharts option + the same data as a table). Use
 *    `ctx.language` with `formatValue`/lib/format for every number and date, `ctx.t` for
 *    texts, `ctx.theme` (+ `baseCartesian`, `axisStyle`) for colours and `STATE_COLORS`
 *    for vehicle states. Table columns carry a `format` (share, duration, integer,
 *    decimal, date, text) that drives both the table view and the CSV export.
 * 2. Render it thinly:
 *      const ctx = useChartContext();
 *      const model = useMemo(() => data && ordersChart(data, ctx), [data, ctx]);
 *      <ModelChartCard name="orders" title={t('processes.orders')} model={model}
 *                 status={chartStatus({ isPending, error, isEmpty, emptyReason, onRetry: refetch })}
 *                 exportScope={{ page: 'processesAnalysis', from, to }} />
 *    (ModelChartCard is a ChartCard with the model's table and an EChart of its option;
 *    use ChartCard directly for other content.)
 *    ChartCard gives test ids `chart-<name>` (data-status, data-view), `chart-table-toggle`,
 *    `csv-export`, `chart-table`, `chart-loading`, `chart-empty` (data-reason), `chart-error`.
 * 3. Empty states say why: `emptyReasonFor({ vehicleCount, shift })` or a reason of your own
 *    from EmptyReason (texts under `charts.empty.<reason>` in en/de).
 * 4. KPI tiles: <KpiTile name="availability" label value trend={trendOf(...)} deltaText />
 *    (test id `kpi-<name>`), optionally with a sparkline: <Sparkline model={...} ariaLabel />
 *    (plain SVG, test id `sparkline`: a dashboard of tiles needs no chart library).
 *
 * EChart is lazy: ECharts is loaded with the first chart, never in the main chunk. To use
 * a chart type or component not yet registered, add it in ./echarts.ts.
 */
export { ChartCard, type ChartCardProps, type ChartStatus } from './ChartCard';
export { ComparedKpiTiles, type ComparedTile } from './ComparedKpiTiles';
export { csvFileName, csvSeparator, downloadCsv, quoteCsvField, toCsv } from './csv';
export { DataTable, type RowLink } from './DataTable';
export { EChart, type EChartProps } from './EChart';
export { type EmptyReason, emptyReasonFor, reportedIn } from './emptyReason';
export { KpiTile } from './KpiTile';
export { formatKpiDelta, formatKpiValue, type KpiUnit } from './kpiFormat';
export { type ChartDrill, ModelChartCard } from './ModelChartCard';
export { PartlyRecordedNote } from './PartlyRecordedNote';
export { type PlotMargins, type PlotScale, scaledFrame } from './plotScale';
export { Sparkline } from './Sparkline';
export { nearestBucket, type SparklineModel, sparklineGeometry } from './sparkline';
export { chartStatus } from './status';
export {
  axisStyle,
  barCartesian,
  baseCartesian,
  chartTheme,
  lookByPosition,
  STATE_COLORS,
  STATE_TEXT_COLORS,
  seriesLook,
  VEHICLE_STATES,
  type VehicleState,
} from './theme';
export { type Trend, trendOf } from './trend';
export type {
  ChartContext,
  ChartModel,
  ChartOption,
  ChartTheme,
  TableCell,
  TableColumn,
  TableData,
  TableRow,
  TimeTicks,
  ValueFormat,
} from './types';
export { useAnalyticsQuery } from './useAnalyticsQuery';
export { useChartContext } from './useChartContext';
export { csvValue, formatValue } from './values';
