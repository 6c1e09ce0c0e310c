import { type AnalysisScope, type AnalyticsPeriod, analyticsQuery } from './analytics-processes';
import { callApi } from './client';
import type { Schemas } from './schema';

/**
 * Productivity, history, dashboard and statusboard (`/v2/Analytics/...`, docs/analytics.md),
 * through the one request chain. Durations are seconds, shares fractions 0..1, distances
 * km, charge percent; a KPI without a denominator is null ("no data", never 0).
 */

export type StateName = 'offline' | 'error' | 'manual' | 'charging' | 'working' | 'idle';
export type StateTimes = Record<StateName, number>;

export type Kpis = Schemas['Kpis'];

export type ProductivityEntry = Schemas['ProductivityEntry'];

export interface Productivity {
  period: AnalyticsPeriod;
  entries: ProductivityEntry[];
  fleet: ProductivityEntry;
  /** Finished orders by site-local weekday (0 = Monday) and hour (0..23). */
  heatmap: number[][];
}

export type Granularity = 'day' | 'week' | 'month';

export interface HistoryBucket {
  from: string;
  to: string;
  /** Still running (a previous bucket: cut at the same elapsed time); future buckets are left out. */
  partial?: boolean;
}

/** The productivity KPIs the history carries. */
export type HistoryKpi =
  | 'periodSeconds'
  | 'noDataSeconds'
  | 'plannedSeconds'
  | 'downtimeSeconds'
  | 'availability'
  | 'utilization'
  | 'idleShare'
  | 'chargingShare'
  | 'throughputPerHour'
  | 'ordersFinished'
  | 'ordersFailed'
  | 'ordersCancelled'
  | 'loadsHandled'
  | 'distanceKm';

/**
 * Each history KPI per series and bucket: `grid.availability[series][bucket]` (null: no data;
 * a bucket without any recorded time is null in every figure but its length and no-data time).
 */
export type KpiGrid = {
  [K in HistoryKpi]: Array<
    Array<K extends 'periodSeconds' | 'noDataSeconds' ? number : Kpis[K] | null>
  >;
};

export type HistorySeries = Schemas['HistorySeries'];

export interface ProductivityHistory {
  period: AnalyticsPeriod;
  granularity: Granularity;
  buckets: HistoryBucket[];
  /** The previous period's buckets, aligned with `buckets` by index. */
  previousBuckets: HistoryBucket[];
  series: HistorySeries[];
  kpis: KpiGrid;
  previous: KpiGrid;
}

export const DASHBOARD_TILE_KEYS = [
  'availability',
  'utilization',
  'throughput',
  'orders',
  'cycleTimeP50',
  'mtbf',
  'mttr',
  'errors',
  'meanCharge',
] as const;
export type DashboardTileKey = (typeof DASHBOARD_TILE_KEYS)[number];
export type TileUnit = 'share' | 'perHour' | 'count' | 'seconds' | 'percent';

export interface DashboardTile {
  key: DashboardTileKey;
  unit: TileUnit;
  value: number | null;
  previous: number | null;
  higherIsBetter: boolean;
  /**
   * false: the value is a percentile from a histogram (the cycle-time median of a period
   * longer than 31 days, within 0.5 %); absent or true: exact.
   */
  exact?: boolean;
  /** One point per bucket up to the running one (`partial`); future buckets are left out. */
  series: Array<{ from: string; value: number | null; partial?: boolean }>;
}

export interface Dashboard {
  period: AnalyticsPeriod;
  granularity: Granularity;
  tiles: DashboardTile[];
  /** Vehicle time of the period and of the previous one, and the part before the first message. */
  coverage: Schemas['Coverage'];
  previousCoverage: Schemas['Coverage'];
}

export type ActiveError = Schemas['ActiveError'];

export type StatusTile = Schemas['StatusTile'];

export type Statusboard = Schemas['StatusboardOut'];

/** A `tile` event of the statusboard stream. */
export interface StatusTileEvent {
  vehicle: StatusTile;
  counts: Record<string, number>;
}

/** One widget of the user's dashboard; fields beyond id and kind belong to the widget. */
export type DashboardWidget = Schemas['DashboardWidget'];

export function loadProductivity(scope: AnalysisScope): Promise<Productivity> {
  return callApi<Productivity>(`/v2/Analytics/Productivity${analyticsQuery(scope)}`);
}

export function loadProductivityHistory(scope: AnalysisScope): Promise<ProductivityHistory> {
  return callApi<ProductivityHistory>(`/v2/Analytics/ProductivityHistory${analyticsQuery(scope)}`);
}

export function loadDashboard(scope: AnalysisScope): Promise<Dashboard> {
  return callApi<Dashboard>(`/v2/Analytics/Dashboard${analyticsQuery(scope)}`);
}

/**
 * The first snapshot, shown until the stream connects. It may come from the chain's
 * 3-minute cache; the stream's own snapshot (its first event) replaces it within moments.
 */
export function loadStatusboard(scope: AnalysisScope): Promise<Statusboard> {
  return callApi<Statusboard>(`/v2/Analytics/Statusboard${analyticsQuery(scope)}`);
}

/**
 * URL of the live stream. EventSource goes around the request chain on purpose: the chain
 * caches and unwraps envelopes, a stream has neither (the spec excludes live streams).
 */
export function statusboardStreamUrl(scope: AnalysisScope): string {
  return `/v2/Analytics/Statusboard/stream${analyticsQuery(scope)}`;
}

const LAYOUT_URL = '/v2/User/dashboard-layout';

export function loadDashboardLayout(): Promise<DashboardWidget[]> {
  return callApi<DashboardWidget[]>(LAYOUT_URL);
}

export function saveDashboardLayout(widgets: DashboardWidget[]): Promise<DashboardWidget[]> {
  return callApi<DashboardWidget[]>(LAYOUT_URL, {
    method: 'PUT',
    body: widgets satisfies Schemas['DashboardWidget'][],
  });
}
