import {
  type AnalysisScope,
  type AnalyticsPeriod,
  analyticsQuery,
  type Page,
  type PageQuery,
  type QueryValue,
} from './analytics-processes';
import { callApi } from './client';

/** Failures analytics (`/v2/Analytics/Failures`, `/FailureMatrix`, `/FailureMap`, `/ErrorHistory`). */

export const ERROR_LEVELS = ['WARNING', 'URGENT', 'CRITICAL', 'FATAL'] as const;
export type ErrorLevel = (typeof ERROR_LEVELS)[number];

export interface ErrorFilter {
  errorType: string | null;
  level: ErrorLevel | null;
}

export interface LevelCounts {
  warning: number;
  urgent: number;
  critical: number;
  fatal: number;
}

export interface ParetoItem {
  errorType: string;
  count: number;
  downtimeSeconds: number;
  levels: LevelCounts;
  /** Of all episodes (by count) or of all downtime, 0..1. */
  share: number;
  cumulativeShare: number;
}

export interface ReliabilityFigures {
  plannedSeconds: number;
  downtimeSeconds: number;
  episodes: number;
  stopEpisodes: number;
  warnings: number;
  mtbfSeconds: number | null;
  mttrSeconds: number | null;
  orders: number;
  errorsPer1000Orders: number | null;
  stopErrorsPer1000Orders: number | null;
  warningsPer1000Orders: number | null;
}

export interface ReliabilityEntry {
  vehicleId: number | null;
  name: string | null;
  current: ReliabilityFigures;
  previous: ReliabilityFigures;
}

export interface FailuresResult {
  period: AnalyticsPeriod;
  paretoByCount: ParetoItem[];
  paretoByDowntime: ParetoItem[];
  levels: LevelCounts;
  entries: ReliabilityEntry[];
  fleet: ReliabilityEntry;
}

export interface MatrixCell {
  errorType: string;
  vehicleId: number;
  count: number;
  worstLevel: string;
  firstSeen: string;
  lastSeen: string;
}

export interface MatrixType {
  errorType: string;
  count: number;
  levels: LevelCounts;
  firstSeen: string;
  lastSeen: string;
}

export interface MatrixVehicle {
  vehicleId: number;
  name: string;
  count: number;
}

export interface FailureMatrixResult {
  period: AnalyticsPeriod;
  errorTypes: MatrixType[];
  vehicles: MatrixVehicle[];
  cells: MatrixCell[];
  maxCount: number;
}

export interface MapGrid {
  originX: number;
  originY: number;
  /** Metres; cell (i, j) starts at origin + (i, j) * size. */
  cellSize: number;
  columns: number;
  rows: number;
  /** `[column, row, count]` of the non-empty cells. */
  cells: [number, number, number][];
}

export interface ErrorPoint {
  vehicleId: number;
  vehicleName: string;
  errorType: string;
  level: string;
  description: string;
  start: string;
  x: number;
  y: number;
}

export interface MapLayer {
  mapId: string;
  bounds: { minX: number; minY: number; maxX: number; maxY: number };
  track: MapGrid;
  density: MapGrid;
  points: ErrorPoint[];
  pointsTotal: number;
}

export interface FailureMapResult {
  period: AnalyticsPeriod;
  maps: MapLayer[];
}

export interface ErrorEpisode {
  vehicleId: number;
  vehicleName: string;
  errorType: string;
  level: string;
  description: string;
  start: string;
  end: string;
  durationSeconds: number;
  /** The order at the start; empty when none. */
  orderId: string;
  x: number | null;
  y: number | null;
  mapId: string;
}

export const HISTORY_SORTS = ['start', 'end', 'duration', 'vehicle', 'errorType', 'level'] as const;
export type HistorySort = (typeof HISTORY_SORTS)[number];

export interface HistoryQuery extends PageQuery, ErrorFilter {
  /** One of the scope's vehicles; the history page leaves it out (the header selects them). */
  vehicle?: number | null;
}

const BASE = '/v2/Analytics';

function filterParams(filter: ErrorFilter): Record<string, QueryValue> {
  return { errorType: filter.errorType, level: filter.level };
}

export function loadFailures(scope: AnalysisScope, filter: ErrorFilter): Promise<FailuresResult> {
  return callApi<FailuresResult>(`${BASE}/Failures${analyticsQuery(scope, filterParams(filter))}`);
}

export function loadFailureMatrix(
  scope: AnalysisScope,
  filter: ErrorFilter,
): Promise<FailureMatrixResult> {
  return callApi<FailureMatrixResult>(
    `${BASE}/FailureMatrix${analyticsQuery(scope, filterParams(filter))}`,
  );
}

export function loadFailureMap(
  scope: AnalysisScope,
  filter: ErrorFilter,
): Promise<FailureMapResult> {
  return callApi<FailureMapResult>(
    `${BASE}/FailureMap${analyticsQuery(scope, filterParams(filter))}`,
  );
}

function historyParams(query: HistoryQuery): Record<string, QueryValue> {
  return { ...filterParams(query), vehicle: query.vehicle ?? null, sort: query.sort };
}

export function loadErrorHistory(
  scope: AnalysisScope,
  query: HistoryQuery,
): Promise<Page<ErrorEpisode>> {
  const extra = { ...historyParams(query), page: query.page, pageSize: query.pageSize };
  return callApi<Page<ErrorEpisode>>(`${BASE}/ErrorHistory${analyticsQuery(scope, extra)}`);
}

/**
 * The url of the server's CSV of the whole filtered list (same filters and sort, no
 * paging). A download link, not a JSON call: the browser saves the streamed file with the
 * name the server gives, in the user's language.
 */
export function errorHistoryCsvUrl(scope: AnalysisScope, query: HistoryQuery): string {
  return `${BASE}/ErrorHistory.csv${analyticsQuery(scope, historyParams(query))}`;
}
