import {
  ERROR_LEVELS,
  type ErrorFilter,
  type ErrorLevel,
  type MapCellFilter,
  type MapLayer,
  mapCellFilter,
  STOP_LEVELS,
} from '../api/analytics-failures';
import type { HeatmapCell, OrderOutcome } from '../api/analytics-processes';
import type { DateMode, Id } from '../api/types';
import { rangeFor } from './dateRange';
import { encodeView, type ViewState } from './viewUrl';

/**
 * Drill-down: every chart element and KPI tile leads to the list or page behind it, in the
 * same period, filtered to what was clicked. A target is a route plus what changes in the
 * view (one vehicle, one day) and the target list's own filters (`errorType`, `level` of
 * failures/history, `workflow` of processes/workflows); the period, shift and combined flag
 * travel along in the URL (lib/viewUrl.ts).
 */
export interface DrillTarget {
  /** Route path, e.g. `/failures/history`. */
  path: DrillPage;
  /** What the target shows differently from the current view (e.g. one vehicle). */
  view?: Partial<ViewState>;
  /** The target list's own filters (a list: the parameter once per value). */
  params?: Record<string, string | readonly string[]>;
}

export const DRILL_PAGES = {
  productivityAnalysis: '/productivity/analysis',
  productivityHistory: '/productivity/history',
  processesAnalysis: '/processes/analysis',
  processesWorkflows: '/processes/workflows',
  processesActions: '/processes/actions',
  failuresAnalysis: '/failures/analysis',
  failuresHistory: '/failures/history',
  battery: '/battery',
} as const;
export type DrillTopic = keyof typeof DRILL_PAGES;
export type DrillPage = (typeof DRILL_PAGES)[DrillTopic];

/** The query parameters the target lists read (besides the view). */
export const DRILL_PARAMS = {
  errorType: 'errorType',
  level: 'level',
  workflow: 'workflow',
  actionType: 'actionType',
  /** The outcome the order lists of processes/workflows open with. */
  outcome: 'outcome',
  /** The cycle-time histogram bucket (index) the order lists of processes/workflows show. */
  cycleBucket: 'cycleBucket',
  /** The orders heatmap's cell processes/workflows shows: `weekday,hour`, or a `weekday`. */
  heatmapCell: 'heatmapCell',
  /** The charge-session list of the battery page: `all`, or a depth bin's lower bound. */
  sessions: 'sessions',
  /** A chart whose table view the page opens (its card's `name`): the list behind a tile. */
  table: 'table',
  /** A density cell of a failure map (failures/history): the map, `column,row`, its grid. */
  mapId: 'mapId',
  cell: 'cell',
  grid: 'grid',
};

/** A clicked chart element, as ECharts reports it (only what the targets need). */
export interface ChartElement {
  seriesIndex?: number;
  dataIndex?: number;
  /** The category name (a bar) or the data item's name. */
  name?: string;
  value?: unknown;
  data?: unknown;
}

/** Where a target lies: the hash route's path and query (the current view with its changes). */
export function drillLocation(
  target: DrillTarget,
  current: ViewState,
): { pathname: string; search: string } {
  const view = { ...current, ...target.view };
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(target.params ?? {})) {
    for (const item of typeof value === 'string' ? [value] : value) {
      params.append(name, item);
    }
  }
  return { pathname: target.path, search: encodeView(view, params.toString()) };
}

export function drillTopicOf(target: DrillTarget): DrillTopic {
  const entry = Object.entries(DRILL_PAGES).find(([, path]) => path === target.path);
  return (entry?.[0] ?? 'productivityAnalysis') as DrillTopic;
}

/**
 * The error history of one error type (and of any of some levels, in one cell of a map),
 * optionally of one vehicle.
 */
export function errorHistoryTarget({
  errorType,
  levels,
  cell,
  vehicleId,
}: {
  errorType?: string | null;
  levels?: readonly ErrorLevel[];
  cell?: MapCellFilter | null;
  vehicleId?: Id | null;
} = {}): DrillTarget {
  const params: Record<string, string | readonly string[]> = {};
  if (errorType) {
    params[DRILL_PARAMS.errorType] = errorType;
  }
  if (levels?.length) {
    params[DRILL_PARAMS.level] = levels;
  }
  if (cell) {
    params[DRILL_PARAMS.mapId] = cell.mapId;
    params[DRILL_PARAMS.cell] = cell.cell;
    params[DRILL_PARAMS.grid] = cell.grid;
  }
  return {
    path: DRILL_PAGES.failuresHistory,
    ...(vehicleId == null ? {} : { view: { vehicles: [vehicleId] } }),
    params,
  };
}

/**
 * The workflows of the period (one vehicle's, if given), a workflow's orders opened; with an
 * outcome, their order lists open showing only orders of that outcome.
 */
export function ordersTarget({
  workflow,
  vehicleId,
  outcome,
  cycleBucket,
  cell,
}: {
  workflow?: string | null;
  vehicleId?: Id | null;
  outcome?: OrderOutcome;
  /** Only the finished orders in this bucket of the cycle-time histogram. */
  cycleBucket?: number;
  /** Only the orders ended in this cell of the orders heatmap. */
  cell?: HeatmapCell;
} = {}): DrillTarget {
  return {
    path: DRILL_PAGES.processesWorkflows,
    ...(vehicleId == null ? {} : { view: { vehicles: [vehicleId] } }),
    params: {
      ...(workflow ? { [DRILL_PARAMS.workflow]: workflow } : {}),
      ...(outcome ? { [DRILL_PARAMS.outcome]: outcome } : {}),
      ...(cycleBucket === undefined ? {} : { [DRILL_PARAMS.cycleBucket]: String(cycleBucket) }),
      ...(cell ? { [DRILL_PARAMS.heatmapCell]: heatmapCellParam(cell) } : {}),
    },
  };
}

/** The orders a count of finished orders (or throughput) stands for. */
const finishedOrdersTarget = ordersTarget({ outcome: 'finished' });

function indexOf(element: ChartElement): number | null {
  const index = element.dataIndex;
  return typeof index === 'number' && Number.isInteger(index) && index >= 0 ? index : null;
}

/** The item behind a category bar (the same index on every series of the chart). */
export function itemAt<T>(items: readonly T[], element: ChartElement): T | null {
  const index = indexOf(element);
  return index === null ? null : (items[index] ?? null);
}

/**
 * A bar (or row) of a cycle-time histogram: the finished orders of the period in its bucket
 * (`buckets`: the server's bucket of each bar shown), workflow by workflow, or of the one
 * workflow it shows. A bar of the previous period counts orders the list does not hold.
 */
export function cycleBarTarget(
  element: ChartElement,
  { buckets, workflow = null }: { buckets: readonly number[]; workflow?: string | null },
): DrillTarget | null {
  if (element.seriesIndex !== undefined && element.seriesIndex !== 0) {
    return null;
  }
  const bucket = itemAt(buckets, element);
  return bucket === null
    ? null
    : ordersTarget({ workflow, outcome: 'finished', cycleBucket: bucket });
}

/** A Pareto bar (or its table row): the error history of that error type. */
export function paretoTarget(
  items: readonly { errorType: string }[],
  element: ChartElement,
): DrillTarget | null {
  const item = itemAt(items, element);
  return item ? errorHistoryTarget({ errorType: item.errorType }) : null;
}

/** A workflow bar (or row): that workflow's orders. */
export function workflowTarget(
  rows: readonly { workflow: string }[],
  element: ChartElement,
): DrillTarget | null {
  const row = itemAt(rows, element);
  return row ? ordersTarget({ workflow: row.workflow }) : null;
}

/** An action type's bar (or row): its failed actions on processes/actions. */
export function actionTarget(
  rows: readonly { actionType: string }[],
  element: ChartElement,
): DrillTarget | null {
  const row = itemAt(rows, element);
  return row
    ? { path: DRILL_PAGES.processesActions, params: { [DRILL_PARAMS.actionType]: row.actionType } }
    : null;
}

/**
 * A vehicle's bar (time in state, reliability): that vehicle's errors in the period, the
 * error history showing beside its filters a link to the same vehicle's orders
 * (`historyOrdersTarget`); the combined bar (no vehicle) leads to the errors of the whole
 * selection.
 */
export function vehicleErrorsTarget(
  entries: readonly { vehicleId: Id | null }[],
  element: ChartElement,
): DrillTarget | null {
  const entry = itemAt(entries, element);
  return entry ? errorHistoryTarget({ vehicleId: entry.vehicleId }) : null;
}

/** A vehicle's distance and loads bar: that vehicle's orders (its workflows). */
export function vehicleOrdersTarget(
  entries: readonly { vehicleId: Id | null }[],
  element: ChartElement,
): DrillTarget | null {
  const entry = itemAt(entries, element);
  return entry ? ordersTarget({ vehicleId: entry.vehicleId }) : null;
}

/**
 * The orders beside an error history: the workflows and their orders of the same view
 * (period, shift, the vehicle or vehicles the history shows), the history's own filters
 * (error type, level) left behind, for they are no filters of orders. With it a vehicle's
 * time-in-state bar leads to that vehicle's errors and orders in the period.
 */
export function historyOrdersTarget(): DrillTarget {
  return ordersTarget();
}

/** A failure-matrix cell: the episodes of that error type on that vehicle. */
export function matrixCellTarget(element: ChartElement): DrillTarget | null {
  const data = element.data as { cell?: { errorType?: unknown; vehicleId?: unknown } } | undefined;
  const cell = data?.cell;
  if (!cell || typeof cell.errorType !== 'string' || typeof cell.vehicleId !== 'number') {
    return null;
  }
  return errorHistoryTarget({ errorType: cell.errorType, vehicleId: cell.vehicleId });
}

/** An error point on the site map (or its table row): that type's episodes on that vehicle. */
export function mapPointTarget(
  points: readonly { errorType: string; vehicleId: Id }[],
  element: ChartElement,
): DrillTarget | null {
  const data = element.data as { point?: { errorType?: unknown; vehicleId?: unknown } } | undefined;
  const point = data?.point;
  if (point && typeof point.errorType === 'string' && typeof point.vehicleId === 'number') {
    return errorHistoryTarget({ errorType: point.errorType, vehicleId: point.vehicleId });
  }
  // A table row: the points in the order the table lists them.
  if (element.data === undefined && element.seriesIndex === undefined) {
    const row = itemAt(points, element);
    return row ? errorHistoryTarget({ errorType: row.errorType, vehicleId: row.vehicleId }) : null;
  }
  return null;
}

/**
 * A cell of a failure map's density heatmap (its item `[column, row, count]`; a table row
 * gives the cell it lists): the episodes it counts, under the page's error filter.
 */
export function densityCellTarget(
  layer: Pick<MapLayer, 'mapId' | 'density'>,
  filter: ErrorFilter,
  cell: readonly number[] | null | undefined,
): DrillTarget | null {
  if (!cell || cell.length < 2) {
    return null;
  }
  return errorHistoryTarget({ ...filter, cell: mapCellFilter(layer.mapId, layer.density, cell) });
}

/** The `[column, row, count]` of a clicked heatmap item, null for anything else. */
export function heatmapItem(element: ChartElement): readonly number[] | null {
  const item = Array.isArray(element.data) ? element.data : element.value;
  return Array.isArray(item) && item.every((value) => typeof value === 'number') ? item : null;
}

/** A cycle-time bucket (index) from the address, null unless a whole number from 0. */
export function cycleBucketOf(text: string | null): number | null {
  return text !== null && /^\d{1,3}$/.test(text) ? Number(text) : null;
}

/** A heatmap cell as the address keeps it: `weekday,hour`, or `weekday` for a row. */
export function heatmapCellParam(cell: HeatmapCell): string {
  return cell.hour === null ? String(cell.weekday) : `${cell.weekday},${cell.hour}`;
}

function inRange(value: number | null, last: number): boolean {
  return value === null || (Number.isInteger(value) && value >= 0 && value <= last);
}

/** The heatmap cell of an address parameter, null for anything else. */
export function heatmapCellOf(text: string | null): HeatmapCell | null {
  const parts = (text ?? '').split(',');
  if (parts.length > 2 || parts.some((part) => !/^\d{1,2}$/.test(part))) {
    return null;
  }
  const weekday = Number(parts[0]);
  const hour = parts.length === 2 ? Number(parts[1]) : null;
  return inRange(weekday, 6) && inRange(hour, 23) ? { weekday, hour } : null;
}

/**
 * A cell of the orders heatmap (hour null: a weekday's row): the workflows of the orders ended
 * there, their lists opened on the finished orders the cell counts.
 */
export function heatmapTarget(weekday: number, hour: number | null = null): DrillTarget | null {
  if (!inRange(weekday, 6) || !inRange(hour, 23)) {
    return null;
  }
  return ordersTarget({ outcome: 'finished', cell: { weekday, hour } });
}

/** The cell of a clicked heatmap item (`[hour, weekday, count]`). */
export function heatmapCellTarget(element: ChartElement): DrillTarget | null {
  const [hour, weekday] = heatmapItem(element) ?? [];
  return hour === undefined || weekday === undefined ? null : heatmapTarget(weekday, hour);
}

/**
 * A bucket of a history series (a day, week or month): the page of the figure for that
 * bucket's period (a bucket the period cuts short stays as short: a custom range).
 */
export function bucketTarget(
  buckets: readonly { from: string; to: string }[],
  element: ChartElement,
  { granularity, path }: { granularity: 'day' | 'week' | 'month'; path: DrillPage },
): DrillTarget | null {
  const bucket = itemAt(buckets, element);
  if (!bucket) {
    return null;
  }
  const whole = rangeFor(granularity, bucket.from);
  const mode: DateMode =
    whole.from === bucket.from && whole.to === bucket.to ? granularity : 'custom';
  return { path, view: { relativeRange: null, mode, from: bucket.from, to: bucket.to } };
}

/**
 * A point of a productivity history chart: the analysis of that bucket. The series come in
 * pairs per line (this period, then the previous one dashed), so odd series are previous;
 * the running buckets' segments follow the pairs in the same order and keep that rule.
 */
export function historyPointTarget(
  history: {
    granularity: 'day' | 'week' | 'month';
    buckets: readonly { from: string; to: string }[];
    previousBuckets: readonly { from: string; to: string }[];
  },
  element: ChartElement,
): DrillTarget | null {
  const previous = (element.seriesIndex ?? 0) % 2 === 1;
  return bucketTarget(previous ? history.previousBuckets : history.buckets, element, {
    granularity: history.granularity,
    path: DRILL_PAGES.productivityAnalysis,
  });
}

/** The battery page of one vehicle (its charge, sessions and health); none for "combined". */
function batteryOf(vehicleId: Id | null | undefined): DrillTarget | null {
  return vehicleId == null ? null : { path: DRILL_PAGES.battery, view: { vehicles: [vehicleId] } };
}

/** A vehicle's battery bar: the battery page of that vehicle. */
export function batteryVehicleTarget(
  entries: readonly { vehicleId: Id | null }[],
  element: ChartElement,
): DrillTarget | null {
  return batteryOf(itemAt(entries, element)?.vehicleId);
}

/** A charge or health line's vehicle: its battery page; the combined line: one line per vehicle. */
function batteryOfLine(vehicleId: Id | null | undefined): DrillTarget | null {
  return vehicleId === null
    ? { path: DRILL_PAGES.battery, view: { combined: false } }
    : batteryOf(vehicleId);
}

/** A charge line (a series per vehicle, or the combined one): see `batteryOfLine`. */
export function chargeLineTarget(
  series: readonly { vehicleId: Id | null }[],
  element: ChartElement,
): DrillTarget | null {
  const index = element.seriesIndex;
  return typeof index === 'number' ? batteryOfLine(series[index]?.vehicleId) : null;
}

/** A row of the charge table (every point of every line, line by line). */
export function chargeRowTarget(
  series: readonly { vehicleId: Id | null; points: readonly unknown[] }[],
  row: number,
): DrillTarget | null {
  let first = 0;
  for (const line of series) {
    if (row >= first && row < first + line.points.length) {
      return batteryOfLine(line.vehicleId);
    }
    first += line.points.length;
  }
  return null;
}

const ALL_SESSIONS = 'all';
// The depth-of-discharge histogram: ten bins of ten percentage points.
const DEPTH_BIN = 10;
const DEPTH_BINS = 10;
const VEHICLE_FIGURE_TILES = new Set(['health', 'health-slope', 'below-low']);

/** The charge sessions of the period on the battery page; with `depth`, one histogram bar's. */
export function chargeSessionsTarget(depth: number | null = null): DrillTarget {
  return {
    path: DRILL_PAGES.battery,
    params: { [DRILL_PARAMS.sessions]: depth === null ? ALL_SESSIONS : String(depth) },
  };
}

/**
 * The session list an address asks for (`sessions=all`, `sessions=20`): null for none, or
 * for a value that is no histogram bar (the list stays closed).
 */
export function sessionListOf(value: string | null): { depth: number | null } | null {
  if (value === ALL_SESSIONS) {
    return { depth: null };
  }
  const depth = value !== null && /^\d{1,2}$/.test(value) ? Number(value) : Number.NaN;
  return depth % DEPTH_BIN === 0 ? { depth } : null;
}

/** A bar (or row) of the depth-of-discharge histogram: the sessions of that bin. */
export function depthBarTarget(element: ChartElement): DrillTarget | null {
  const index = indexOf(element);
  return index === null || index >= DEPTH_BINS ? null : chargeSessionsTarget(index * DEPTH_BIN);
}

/** The battery page's chart of the figures per vehicle, whose table lists each vehicle's. */
export const BATTERY_VEHICLES_CHART = 'battery-vehicles';

/**
 * The lists behind the battery tiles: the session figures, the charging share and the cycles
 * (discharge between sessions) lead to the sessions; health and time below 20 % to the
 * table of the figures per vehicle (the vehicles apart, if the page shows them combined).
 */
export function batteryTileTarget(tile: string, combined: boolean): DrillTarget {
  if (VEHICLE_FIGURE_TILES.has(tile)) {
    return {
      path: DRILL_PAGES.battery,
      ...(combined ? { view: { combined: false } } : {}),
      params: { [DRILL_PARAMS.table]: BATTERY_VEHICLES_CHART },
    };
  }
  return chargeSessionsTarget();
}

/** The page each dashboard tile summarises. */
const DASHBOARD_TILE_TARGETS: Record<string, DrillTarget> = {
  availability: { path: DRILL_PAGES.productivityAnalysis },
  utilization: { path: DRILL_PAGES.productivityAnalysis },
  throughput: { path: DRILL_PAGES.productivityAnalysis },
  orders: finishedOrdersTarget,
  cycleTimeP50: { path: DRILL_PAGES.processesAnalysis },
  mtbf: { path: DRILL_PAGES.failuresAnalysis },
  mttr: { path: DRILL_PAGES.failuresAnalysis },
  errors: errorHistoryTarget(),
  meanCharge: { path: DRILL_PAGES.battery },
};

export function dashboardTileTarget(tile: string): DrillTarget | null {
  return DASHBOARD_TILE_TARGETS[tile] ?? null;
}

/** The lists behind the KPI tiles of the analysis pages (tiles not named stay plain). */
const PAGE_TILE_TARGETS: Record<string, DrillTarget> = {
  // productivity/analysis: throughput and orders count finished orders, loads are finished
  // load-handling actions; what took availability (downtime by error type); the charging
  // share's sessions; the other shares and the distance over the days of the period.
  throughput: finishedOrdersTarget,
  orders: finishedOrdersTarget,
  loads: { path: DRILL_PAGES.processesActions },
  availability: { path: DRILL_PAGES.failuresAnalysis },
  utilization: { path: DRILL_PAGES.productivityHistory },
  idleShare: { path: DRILL_PAGES.productivityHistory },
  chargingShare: chargeSessionsTarget(),
  distance: { path: DRILL_PAGES.productivityHistory },
  // processes/analysis
  'cycle-p50': ordersTarget(),
  'cycle-p90': ordersTarget(),
  'cycle-p95': ordersTarget(),
  'cycle-max': ordersTarget(),
  'success-rate': ordersTarget(),
  'mean-waiting': ordersTarget(),
  // failures/analysis. The fatal errors are the episodes that stop a vehicle (FATAL, and
  // CRITICAL in 3.0): MTBF and MTTR are figures of them, the error time of downtime is theirs.
  mtbf: errorHistoryTarget({ levels: STOP_LEVELS }),
  mttr: errorHistoryTarget({ levels: STOP_LEVELS }),
  'errors-per-1000': errorHistoryTarget(),
  downtime: errorHistoryTarget({ levels: STOP_LEVELS }),
  fatal: errorHistoryTarget({ levels: STOP_LEVELS }),
  'fatal-per-1000': errorHistoryTarget({ levels: STOP_LEVELS }),
  warnings: errorHistoryTarget({ levels: ['WARNING'] }),
  'warnings-per-1000': errorHistoryTarget({ levels: ['WARNING'] }),
};

export function pageTileTarget(tile: string): DrillTarget | null {
  return PAGE_TILE_TARGETS[tile] ?? null;
}

// The server's limit of an error type (backend analytics/failures.py MAX_ERROR_TYPE_LENGTH).
const MAX_ERROR_TYPE_LENGTH = 200;
const MAX_MAP_ID_LENGTH = 200;

/**
 * The error filter a link carries (`errorType`, `level` once per level); unreadable parts
 * are left out, the levels in their order of severity.
 */
export function errorFilterFromUrl(search: string): ErrorFilter {
  const params = new URLSearchParams(search);
  const errorType = params.get(DRILL_PARAMS.errorType);
  const levels = params.getAll(DRILL_PARAMS.level);
  const [mapId, cell, grid] = [DRILL_PARAMS.mapId, DRILL_PARAMS.cell, DRILL_PARAMS.grid].map(
    (name) => params.get(name),
  );
  // The server checks the cell (a 422 names what is wrong); here only that all three came.
  const withCell = mapId && cell && grid && mapId.length <= MAX_MAP_ID_LENGTH;
  return {
    errorType: errorType && errorType.length <= MAX_ERROR_TYPE_LENGTH ? errorType : null,
    levels: ERROR_LEVELS.filter((level) => levels.includes(level)),
    // Always named: the list's reducer merges filters, so an absent cell must clear one.
    cell: withCell ? { mapId, cell, grid } : null,
  };
}

/** `search` with the error filter set (cleared parts removed, other parameters kept). */
export function withErrorFilter(search: string, filter: ErrorFilter): string {
  const params = new URLSearchParams(search);
  const { cell } = filter;
  for (const [name, values] of [
    [DRILL_PARAMS.errorType, filter.errorType ? [filter.errorType] : []],
    [DRILL_PARAMS.level, filter.levels],
    [DRILL_PARAMS.mapId, cell ? [cell.mapId] : []],
    [DRILL_PARAMS.cell, cell ? [cell.cell] : []],
    [DRILL_PARAMS.grid, cell ? [cell.grid] : []],
  ] as const) {
    params.delete(name);
    for (const value of values) {
      params.append(name, value);
    }
  }
  const query = params.toString().replaceAll('%2C', ',');
  return query ? `?${query}` : '';
}

/**
 * The query the menu carries from page to page: the view, without one list's own filters
 * (an error type chosen on the history is not a filter of the next page).
 */
export function withoutDrillParams(search: string): string {
  const params = new URLSearchParams(search);
  for (const name of Object.values(DRILL_PARAMS)) {
    params.delete(name);
  }
  const query = params.toString().replaceAll('%2C', ',');
  return query ? `?${query}` : '';
}
