import {
  ERROR_LEVELS,
  type ErrorFilter,
  type ErrorLevel,
  type MapCellFilter,
  type MapLayer,
  mapCellFilter,
  STOP_LEVELS,
} from '../../api/analytics-failures';
import type { Id } from '../../api/types';
import { type ChartElement, DRILL_PAGES, DRILL_PARAMS, type DrillTarget, itemAt } from './targets';

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
 * A Pareto bar (or its table row): the error history of that error type. By count, a bar is
 * stacked by level (`ERROR_LEVELS` order), and a level's segment leads to that level's
 * episodes; by downtime, to the stop-level episodes whose time it sums.
 */
export function paretoTarget(
  items: readonly { errorType: string }[],
  element: ChartElement,
  measure: 'count' | 'downtime' = 'count',
): DrillTarget | null {
  const item = itemAt(items, element);
  if (!item) {
    return null;
  }
  const segment = element.seriesIndex === undefined ? undefined : ERROR_LEVELS[element.seriesIndex];
  const levels = measure === 'downtime' ? STOP_LEVELS : segment ? [segment] : [];
  return errorHistoryTarget({ errorType: item.errorType, levels });
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
  levels: readonly ErrorLevel[] = [],
): DrillTarget | null {
  const entry = itemAt(entries, element);
  return entry ? errorHistoryTarget({ vehicleId: entry.vehicleId, levels }) : null;
}

/** A vehicle's MTBF or MTTR bar: that vehicle's stop-level episodes, which both count. */
export function vehicleStopsTarget(
  entries: readonly { vehicleId: Id | null }[],
  element: ChartElement,
): DrillTarget | null {
  return vehicleErrorsTarget(entries, element, STOP_LEVELS);
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

/**
 * An error point on the site map (or its table row): that type's episodes on that vehicle,
 * of the levels the page's error filter shows.
 */
export function mapPointTarget(
  points: readonly { errorType: string; vehicleId: Id }[],
  element: ChartElement,
  levels: readonly ErrorLevel[] = [],
): DrillTarget | null {
  const data = element.data as { point?: { errorType?: unknown; vehicleId?: unknown } } | undefined;
  const point = data?.point;
  if (point && typeof point.errorType === 'string' && typeof point.vehicleId === 'number') {
    return errorHistoryTarget({ errorType: point.errorType, vehicleId: point.vehicleId, levels });
  }
  // A table row: the points in the order the table lists them.
  if (element.data === undefined && element.seriesIndex === undefined) {
    const row = itemAt(points, element);
    return row
      ? errorHistoryTarget({ errorType: row.errorType, vehicleId: row.vehicleId, levels })
      : null;
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
