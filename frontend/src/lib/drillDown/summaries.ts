import { STOP_LEVELS } from '../../api/analytics-failures';
import type { DateMode, Id } from '../../api/types';
import { rangeFor } from '../dateRange';
import { chargeSessionsTarget } from './battery';
import { errorHistoryTarget } from './errors';
import { finishedOrdersTarget, ordersTarget } from './orders';
import {
  type ChartElement,
  DRILL_PAGES,
  DRILL_PARAMS,
  type DrillPage,
  type DrillTarget,
  itemAt,
} from './targets';

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
 * A point of a productivity history chart: the analysis of that bucket, of the point's
 * vehicle when the lines are per vehicle. The series come in pairs per line (this period,
 * then the previous one dashed), so odd series are previous; the running buckets' segments
 * follow the pairs in the same order and keep that rule.
 */
export function historyPointTarget(
  history: {
    granularity: 'day' | 'week' | 'month';
    buckets: readonly { from: string; to: string }[];
    previousBuckets: readonly { from: string; to: string }[];
    series?: readonly { vehicleId: Id | null }[];
  },
  element: ChartElement,
): DrillTarget | null {
  const index = element.seriesIndex ?? 0;
  const previous = index % 2 === 1;
  const target = bucketTarget(previous ? history.previousBuckets : history.buckets, element, {
    granularity: history.granularity,
    path: DRILL_PAGES.productivityAnalysis,
  });
  const lines = history.series ?? [];
  const vehicleId =
    element.seriesIndex === undefined || lines.length === 0
      ? null
      : (lines[Math.floor(index / 2) % lines.length]?.vehicleId ?? null);
  return target && vehicleId !== null
    ? { ...target, view: { ...target.view, vehicles: [vehicleId] } }
    : target;
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

/**
 * The live statusboard of the same vehicles, behind the dashboard's fleet-state chart; with a
 * state, only the vehicles in that state now (a state's bar or row).
 */
export function statusboardTarget(state: string | null = null): DrillTarget {
  return {
    path: DRILL_PAGES.statusboard,
    ...(state ? { params: { [DRILL_PARAMS.state]: state } } : {}),
  };
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
  'mean-paused': ordersTarget(),
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
