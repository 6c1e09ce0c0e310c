import { STOP_LEVELS } from '../../api/analytics-failures';
import type { Id } from '../../api/types';
import { VEHICLE_STATES } from '../../components/charts/theme';
import { chargeSessionsTarget } from './battery';
import { vehicleErrorsTarget } from './errors';
import { ordersTarget } from './orders';
import { type ChartElement, type DrillTarget, itemAt } from './targets';

/**
 * A segment of a vehicle's time-in-state bar (a series per state, in `VEHICLE_STATES`
 * order): the list of what filled that time. Working time: the vehicle's orders; charging:
 * its charge sessions; error: its stop-level episodes (those that put it in the error
 * state). Idle, offline and manual time have no list of their own, and neither has the
 * whole bar (its table row): they lead to the vehicle's errors, whose history links on to
 * its orders. The combined bar leads to those of the whole selection.
 */
export function vehicleStateTarget(
  entries: readonly { vehicleId: Id | null }[],
  element: ChartElement,
): DrillTarget | null {
  const entry = itemAt(entries, element);
  if (!entry) {
    return null;
  }
  const state = element.seriesIndex === undefined ? undefined : VEHICLE_STATES[element.seriesIndex];
  const vehicle = entry.vehicleId == null ? {} : { view: { vehicles: [entry.vehicleId] } };
  switch (state) {
    case 'working':
      return ordersTarget({ vehicleId: entry.vehicleId });
    case 'charging':
      return { ...chargeSessionsTarget(), ...vehicle };
    case 'error':
      return vehicleErrorsTarget(entries, element, STOP_LEVELS);
    default:
      return vehicleErrorsTarget(entries, element);
  }
}
