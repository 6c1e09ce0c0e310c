import type { AnalysisFilters } from '../components/filters/filtersContext';
import { callApi } from './client';
import type { Schemas } from './schema';

/**
 * Processes analytics (`/v2/Analytics/Processes`, `/Workflows`, `/Actions` and their
 * drill-downs), through the one request chain. Also home of the query-string builder the
 * failures and battery calls share: every analytics call sends the same period, vehicles,
 * combined and shift as the page header shows.
 */

export type AnalysisScope = Pick<
  AnalysisFilters,
  'from' | 'to' | 'vehicles' | 'combined' | 'shift'
> &
  Partial<Pick<AnalysisFilters, 'hours'>>;

/** One string per selection (period, vehicles, combined, shift): for query and React keys. */
export function scopeKey(scope: AnalysisScope): string {
  const vehicles = scope.vehicles.map((vehicle) => vehicle.id).join(',');
  const period = scope.hours ? `${scope.hours}h` : `${scope.from}|${scope.to}`;
  return [period, vehicles, scope.combined, scope.shift].join('|');
}

/** A query value; a list repeats its parameter once per value (`level=CRITICAL&level=FATAL`). */
export type QueryValue = string | number | readonly string[] | null | undefined;

/**
 * `?from=..&to=..&vehicles=1,2&combined=false&shift=all` plus the extra non-empty values; a
 * rolling period (the last 24 hours) sends `hours=24` instead of from/to.
 */
export function analyticsQuery(
  scope: AnalysisScope,
  extra: Readonly<Record<string, QueryValue>> = {},
): string {
  const params = new URLSearchParams();
  if (scope.hours) {
    params.set('hours', String(scope.hours));
  } else {
    params.set('from', scope.from);
    params.set('to', scope.to);
  }
  if (scope.vehicles.length > 0) {
    params.set('vehicles', scope.vehicles.map((vehicle) => String(vehicle.id)).join(','));
  }
  params.set('combined', String(scope.combined));
  params.set('shift', String(scope.shift));
  for (const [key, value] of Object.entries(extra)) {
    if (typeof value === 'object' && value !== null) {
      for (const item of value) {
        params.append(key, item);
      }
    } else if (value !== null && value !== undefined && value !== '') {
      params.set(key, String(value));
    }
  }
  return `?${params.toString()}`;
}

/** The period the server resolved (site-local days, inclusive) and its previous period. */
export interface AnalyticsPeriod {
  from: string;
  to: string;
  previousFrom: string;
  previousTo: string;
  days: number;
  shift: string;
  combined: boolean;
  vehicleIds: number[];
}

/** One page of a server-side paged list; a page beyond `pages` has no items. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  pages: number;
  /** The sort in effect, `-` prefix for descending. */
  sort: string;
}

export interface PageQuery {
  page: number;
  pageSize: number;
  sort: string | null;
}

export interface CycleTimes {
  count: number;
  p50Seconds: number | null;
  p90Seconds: number | null;
  p95Seconds: number | null;
  maxSeconds: number | null;
  meanSeconds: number | null;
  /**
   * false: p50, p90 and p95 come from a histogram (periods longer than 31 days, within
   * 0.5 % of the exact value); absent or true: exact.
   */
  exact?: boolean;
}

export type Outcomes = Schemas['Outcomes'];

export type OrderTimes = Schemas['OrderTimes'];

export interface ProcessFigures {
  cycle: CycleTimes;
  outcomes: Outcomes;
  times: OrderTimes;
  /** Finished orders per bucket of `histogramEdges`. */
  histogram: number[];
}

export interface ProcessEntry {
  /** null: the selected vehicles combined. */
  vehicleId: number | null;
  name: string | null;
  current: ProcessFigures;
  previous: ProcessFigures;
}

export interface ProcessesResult {
  period: AnalyticsPeriod;
  /** Lower edge in seconds of each bucket; the last bucket is open above. */
  histogramEdges: number[];
  entries: ProcessEntry[];
  fleet: ProcessEntry;
}

export type WorkflowRow = Schemas['WorkflowRow'];

export interface WorkflowsResult {
  period: AnalyticsPeriod;
  sort: string;
  /** Lower edge (seconds) of each cycle-time bucket, as on Processes; the last is open above. */
  histogramEdges: number[];
  workflows: WorkflowRow[];
  /** false: every row's cycle-time percentiles come from a histogram; absent or true: exact. */
  exact?: boolean;
  /** false: the previous period recorded nothing, so the trends are no comparison. */
  previousRecorded?: boolean;
  /** How much of each period the vehicles recorded (the order counts compare only as far). */
  coverage: Schemas['Coverage'];
  previousCoverage: Schemas['Coverage'];
}

export const ORDER_OUTCOMES = ['finished', 'failed', 'cancelled'] as const;
export type OrderOutcome = (typeof ORDER_OUTCOMES)[number];

export type WorkflowOrder = Schemas['WorkflowOrder'];

export interface WorkflowHistogramResult {
  period: AnalyticsPeriod;
  workflow: string;
  histogramEdges: number[];
  current: ProcessFigures;
  previous: ProcessFigures;
}

export type ActionRow = Schemas['ActionRow'];

export interface ActionsResult {
  period: AnalyticsPeriod;
  actions: ActionRow[];
  /**
   * false: every row's duration and wait percentiles come from a histogram; absent or
   * true: exact.
   */
  exact?: boolean;
}

export type FailedAction = Schemas['FailedAction'];

/**
 * A cell of the productivity heatmap (hour null: a weekday's row): the orders ended on that
 * site-local weekday (Monday = 0) and hour, as the workflows' drill-down filters them.
 */
export interface HeatmapCell {
  weekday: number;
  hour: number | null;
}

function cellParams(cell: HeatmapCell | null | undefined): Record<string, QueryValue> {
  return { weekday: cell?.weekday ?? null, hour: cell?.hour ?? null };
}

/** Columns the server sorts the lists by (allow-listed there). */
export const WORKFLOW_SORTS = [
  'workflow',
  'orders',
  'finished',
  'successRate',
  'cycleP50',
  'cycleP90',
  'ordersTrend',
  'previousSuccessRate',
] as const;
export const ORDER_SORTS = [
  'start',
  'end',
  'duration',
  'distance',
  'vehicle',
  'outcome',
  'orderId',
] as const;
export const FAILED_ACTION_SORTS = ['end', 'firstSeen', 'duration', 'vehicle', 'orderId'] as const;

const BASE = '/v2/Analytics';

/** The query parameters of a page of a server-side list. */
export function pageParams(query: PageQuery): Record<string, QueryValue> {
  return { page: query.page, pageSize: query.pageSize, sort: query.sort };
}

export function loadProcesses(scope: AnalysisScope): Promise<ProcessesResult> {
  return callApi<ProcessesResult>(`${BASE}/Processes${analyticsQuery(scope)}`);
}

/** The workflows table: sorted, and narrowed as a drill-down opened it (a cell, a bucket). */
export function loadWorkflows(
  scope: AnalysisScope,
  {
    sort = null,
    cell = null,
    cycleBucket = null,
  }: { sort?: string | null; cell?: HeatmapCell | null; cycleBucket?: number | null } = {},
): Promise<WorkflowsResult> {
  const extra = { sort, cycleBucket, ...cellParams(cell) };
  return callApi<WorkflowsResult>(`${BASE}/Workflows${analyticsQuery(scope, extra)}`);
}

export function loadWorkflowOrders(
  scope: AnalysisScope,
  workflow: string,
  query: PageQuery & {
    outcome?: OrderOutcome | null;
    cycleBucket?: number | null;
    cell?: HeatmapCell | null;
  },
): Promise<Page<WorkflowOrder>> {
  const extra = {
    ...pageParams(query),
    outcome: query.outcome ?? null,
    cycleBucket: query.cycleBucket ?? null,
    ...cellParams(query.cell),
  };
  return callApi<Page<WorkflowOrder>>(
    `${BASE}/Workflows/${encodeURIComponent(workflow)}/Orders${analyticsQuery(scope, extra)}`,
  );
}

export function loadWorkflowHistogram(
  scope: AnalysisScope,
  workflow: string,
  cell: HeatmapCell | null = null,
): Promise<WorkflowHistogramResult> {
  const query = analyticsQuery(scope, cellParams(cell));
  return callApi<WorkflowHistogramResult>(
    `${BASE}/Workflows/${encodeURIComponent(workflow)}/Histogram${query}`,
  );
}

export function loadActions(scope: AnalysisScope): Promise<ActionsResult> {
  return callApi<ActionsResult>(`${BASE}/Actions${analyticsQuery(scope)}`);
}

export function loadFailedActions(
  scope: AnalysisScope,
  actionType: string,
  query: PageQuery,
): Promise<Page<FailedAction>> {
  return callApi<Page<FailedAction>>(
    `${BASE}/Actions/${encodeURIComponent(actionType)}/Failures${analyticsQuery(scope, pageParams(query))}`,
  );
}
