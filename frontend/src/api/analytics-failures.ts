import {
  type AnalysisScope,
  type AnalyticsPeriod,
  analyticsQuery,
  type Page,
  type PageQuery,
  type QueryValue,
} from './analytics-processes';
import { callApi } from './client';
import type { Schemas } from './schema';

/** Failures analytics (`/v2/Analytics/Failures`, `/FailureMatrix`, `/FailureMap`, `/ErrorHistory`). */

export const ERROR_LEVELS = ['WARNING', 'URGENT', 'CRITICAL', 'FATAL'] as const;
export type ErrorLevel = (typeof ERROR_LEVELS)[number];
/**
 * The levels that stop a vehicle, counted as its fatal errors (MTBF, MTTR): FATAL, and in
 * VDA 5050 3.0 also CRITICAL (earlier versions have no CRITICAL).
 */
export const STOP_LEVELS: readonly ErrorLevel[] = ['CRITICAL', 'FATAL'];

/**
 * One cell of a failure map's density grid (the API's `mapId`, `cell`, `grid`): the episodes
 * the cell counts, binned by the server as the map was.
 */
export interface MapCellFilter {
  mapId: string;
  /** `column,row`, from 0. */
  cell: string;
  /** The map's density grid: `originX,originY,cellSize,columns,rows`. */
  grid: string;
}

export interface ErrorFilter {
  errorType: string | null;
  /** Any of these levels; none: every level. */
  levels: readonly ErrorLevel[];
  /** One cell of a failure map (a density cell's drill-down); none: everywhere. */
  cell?: MapCellFilter | null;
}

export const NO_ERROR_FILTER: ErrorFilter = { errorType: null, levels: [] };

export type LevelCounts = Schemas['LevelCounts'];

export type ParetoItem = Schemas['ParetoItem'];

export type ReliabilityFigures = Schemas['ReliabilityFigures'];

export type ReliabilityEntry = Schemas['ReliabilityEntry'];

export interface FailuresResult {
  period: AnalyticsPeriod;
  paretoByCount: ParetoItem[];
  paretoByDowntime: ParetoItem[];
  levels: LevelCounts;
  entries: ReliabilityEntry[];
  fleet: ReliabilityEntry;
}

export type MatrixCell = Schemas['MatrixCell'];

export type MatrixType = Schemas['MatrixType'];

export type MatrixVehicle = Schemas['MatrixVehicle'];

export interface FailureMatrixResult {
  period: AnalyticsPeriod;
  errorTypes: MatrixType[];
  vehicles: MatrixVehicle[];
  cells: MatrixCell[];
  maxCount: number;
}

export type MapGrid = Schemas['Grid'];

export type ErrorPoint = Schemas['ErrorPoint'];

export type MapLayer = Schemas['MapLayer'];

export interface FailureMapResult {
  period: AnalyticsPeriod;
  maps: MapLayer[];
}

export type ErrorEpisode = Schemas['ErrorEpisodeRow'];

export const HISTORY_SORTS = ['start', 'end', 'duration', 'vehicle', 'errorType', 'level'] as const;
export type HistorySort = (typeof HISTORY_SORTS)[number];

export interface HistoryQuery extends PageQuery, ErrorFilter {
  /** One of the scope's vehicles; the history page leaves it out (the header selects them). */
  vehicle?: number | null;
}

const BASE = '/v2/Analytics';

function filterParams(filter: ErrorFilter): Record<string, QueryValue> {
  const { cell } = filter;
  return {
    errorType: filter.errorType,
    level: filter.levels,
    mapId: cell?.mapId ?? null,
    cell: cell?.cell ?? null,
    grid: cell?.grid ?? null,
  };
}

/** The filter of the cell `[column, row]` of a map's density grid. */
export function mapCellFilter(
  mapId: string,
  density: MapGrid,
  [column, row]: readonly number[],
): MapCellFilter {
  const { originX, originY, cellSize, columns, rows } = density;
  return {
    mapId,
    cell: `${column},${row}`,
    grid: [originX, originY, cellSize, columns, rows].join(','),
  };
}

/** The area of the cell `[column, row]` of a map's grid, in metres. */
export function cellArea(
  grid: Pick<MapGrid, 'originX' | 'originY' | 'cellSize'>,
  column: number,
  row: number,
): { x0: number; x1: number; y0: number; y1: number } {
  const { originX, originY, cellSize } = grid;
  const x0 = originX + column * cellSize;
  const y0 = originY + row * cellSize;
  return { x0, x1: x0 + cellSize, y0, y1: y0 + cellSize };
}

/** The centre `[x, y]` of the cell `[column, row]` of a map's grid, in metres. */
export function cellCentre(
  grid: Pick<MapGrid, 'originX' | 'originY' | 'cellSize'>,
  column: number,
  row: number,
): [number, number] {
  const { x0, x1, y0, y1 } = cellArea(grid, column, row);
  return [(x0 + x1) / 2, (y0 + y1) / 2];
}

/** The area a cell filter covers in metres (for its label); null if its text is not one. */
export function mapCellArea(
  filter: MapCellFilter,
): { x0: number; x1: number; y0: number; y1: number } | null {
  const [column = Number.NaN, row = Number.NaN] = filter.cell.split(',').map(Number);
  const [originX = Number.NaN, originY = Number.NaN, cellSize = Number.NaN] = filter.grid
    .split(',')
    .map(Number);
  if (![column, row, originX, originY, cellSize].every(Number.isFinite)) {
    return null;
  }
  return cellArea({ originX, originY, cellSize }, column, row);
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
