import type { HeatmapCell, OrderOutcome } from '../../api/analytics-processes';
import type { Id } from '../../api/types';
import {
  type ChartElement,
  DRILL_PAGES,
  DRILL_PARAMS,
  type DrillTarget,
  heatmapItem,
  itemAt,
} from './targets';

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
export const finishedOrdersTarget = ordersTarget({ outcome: 'finished' });

/**
 * A bar (or row) of a cycle-time histogram: the finished orders of the period in its bucket
 * (`buckets`: the server's bucket of each bar shown), workflow by workflow, or of the one
 * workflow it shows. A bar of the previous period counts orders the list does not hold.
 */
export function cycleBarTarget(
  element: ChartElement,
  {
    buckets,
    workflow = null,
    cell = null,
  }: { buckets: readonly number[]; workflow?: string | null; cell?: HeatmapCell | null },
): DrillTarget | null {
  if (element.seriesIndex !== undefined && element.seriesIndex !== 0) {
    return null;
  }
  const bucket = itemAt(buckets, element);
  return bucket === null
    ? null
    : ordersTarget({ workflow, outcome: 'finished', cycleBucket: bucket, cell: cell ?? undefined });
}

/**
 * A workflow bar (or row): that workflow's orders, of the heatmap cell or cycle-time bucket
 * the page is narrowed to (the bar counts only those).
 */
export function workflowTarget(
  rows: readonly { workflow: string }[],
  element: ChartElement,
  {
    cell = null,
    cycleBucket = null,
  }: { cell?: HeatmapCell | null; cycleBucket?: number | null } = {},
): DrillTarget | null {
  const row = itemAt(rows, element);
  return row
    ? ordersTarget({
        workflow: row.workflow,
        cell: cell ?? undefined,
        ...(cycleBucket === null ? {} : { outcome: 'finished', cycleBucket }),
      })
    : null;
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

/** A vehicle's distance and loads bar: that vehicle's orders (its workflows). */
export function vehicleOrdersTarget(
  entries: readonly { vehicleId: Id | null }[],
  element: ChartElement,
): DrillTarget | null {
  const entry = itemAt(entries, element);
  return entry ? ordersTarget({ vehicleId: entry.vehicleId }) : null;
}

/** The outcomes chart's stack, bottom up (`outcomesChart`). */
export const OUTCOME_STACK: readonly OrderOutcome[] = ['finished', 'failed', 'cancelled'];

/** A segment of a vehicle's outcomes bar: its orders of that outcome (a row: all of them). */
export function vehicleOutcomeTarget(
  entries: readonly { vehicleId: Id | null }[],
  element: ChartElement,
): DrillTarget | null {
  const entry = itemAt(entries, element);
  const outcome =
    element.seriesIndex === undefined ? undefined : OUTCOME_STACK[element.seriesIndex];
  return entry ? ordersTarget({ vehicleId: entry.vehicleId, outcome }) : null;
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
