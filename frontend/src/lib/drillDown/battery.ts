import type { Id } from '../../api/types';
import {
  type ChartElement,
  DRILL_PAGES,
  DRILL_PARAMS,
  type DrillTarget,
  indexOf,
  itemAt,
} from './targets';

/** The battery page of one vehicle (its charge, sessions and health); none for "combined". */
function batteryOf(vehicleId: Id | null | undefined): DrillTarget | null {
  return vehicleId == null ? null : { path: DRILL_PAGES.battery, view: { vehicles: [vehicleId] } };
}

/**
 * A vehicle's battery bar: the battery page of that vehicle; the combined bar: the vehicles
 * apart (`batteryOfLine`).
 */
export function batteryVehicleTarget(
  entries: readonly { vehicleId: Id | null }[],
  element: ChartElement,
): DrillTarget | null {
  const entry = itemAt(entries, element);
  return entry ? batteryOfLine(entry.vehicleId) : null;
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
const VEHICLE_FIGURE_TILES = new Set([
  'mean-charge',
  'min-charge',
  'health',
  'health-slope',
  'below-low',
]);

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

/**
 * A bar (or row) of the depth-of-discharge histogram: the sessions of that bin. A bar of the
 * previous period counts sessions the list does not hold: it leads nowhere.
 */
export function depthBarTarget(element: ChartElement): DrillTarget | null {
  if (element.seriesIndex !== undefined && element.seriesIndex !== 0) {
    return null;
  }
  const index = indexOf(element);
  return index === null || index >= DEPTH_BINS ? null : chargeSessionsTarget(index * DEPTH_BIN);
}

/** The battery page's chart of the figures per vehicle, whose table lists each vehicle's. */
export const BATTERY_VEHICLES_CHART = 'battery-vehicles';

/**
 * The lists behind the battery tiles: the session figures, the charging share and the cycles
 * (discharge between sessions) lead to the sessions; the charge, health and time below 20 %
 * to the table of the figures per vehicle (the vehicles apart, if the page shows them combined).
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
