import { encodeView, type ViewState } from '../viewUrl';

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
  statusboard: '/dashboards/statusboard',
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
  /** The statusboard's state: only the vehicles in it (a fleet-now bar, a state count). */
  state: 'state',
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

export function indexOf(element: ChartElement): number | null {
  const index = element.dataIndex;
  return typeof index === 'number' && Number.isInteger(index) && index >= 0 ? index : null;
}

/** The item behind a category bar (the same index on every series of the chart). */
export function itemAt<T>(items: readonly T[], element: ChartElement): T | null {
  const index = indexOf(element);
  return index === null ? null : (items[index] ?? null);
}

/** The `[column, row, count]` of a clicked heatmap item, null for anything else. */
export function heatmapItem(element: ChartElement): readonly number[] | null {
  const item = Array.isArray(element.data) ? element.data : element.value;
  return Array.isArray(item) && item.every((value) => typeof value === 'number') ? item : null;
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
