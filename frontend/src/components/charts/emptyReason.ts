import type { Site } from '../../api/types';

/**
 * Why a chart is empty, as an i18n key under `charts.empty`. The pages pass the reason to
 * ChartCard so the user reads what to change, not just "no data".
 */
export type EmptyReason =
  | 'noVehicles'
  | 'noDataInPeriod'
  | 'shiftExcludes'
  | 'noEvents'
  // The vehicles send data, but not the value the chart shows (battery state of health).
  | 'noHealth';

const DAY_MS = 86_400_000;

/** Whether an answer's period holds time the vehicles reported (T beyond its no-data part). */
export function reportedIn(figures: { periodSeconds: number; noDataSeconds: number }): boolean {
  return figures.periodSeconds > figures.noDataSeconds;
}

/**
 * Whether shift `shift` starts on a day from `from` to `to` (ISO dates) at one of `sites`:
 * `weekdays` are the days a shift starts on, 0 = Monday. Seven days hold every weekday.
 */
export function shiftRunsIn({
  shift,
  sites,
  from,
  to,
}: {
  shift: string | number;
  sites: readonly Pick<Site, 'shifts'>[];
  from: string;
  to: string;
}): boolean {
  const first = Date.parse(`${from}T00:00:00Z`);
  const last = Math.min(Date.parse(`${to}T00:00:00Z`), first + 6 * DAY_MS);
  const weekdays = new Set<number>();
  for (let day = first; day <= last; day += DAY_MS) {
    weekdays.add((new Date(day).getUTCDay() + 6) % 7);
  }
  return sites.some((site) =>
    site.shifts.some(
      (entry) => String(entry.id) === String(shift) && entry.weekdays.some((d) => weekdays.has(d)),
    ),
  );
}

/**
 * The reason for an empty result: no vehicles (the user sees none: an empty selection means
 * all of them, lib/filters.ts `effectiveVehicles`); the selected shift has no time in
 * the period at the vehicles' sites (`shiftRuns` false: choosing another shift helps);
 * otherwise the period holds no data (a day before the fleet reported, or in the future).
 */
export function emptyReasonFor({
  vehicleCount,
  shift,
  shiftRuns,
}: {
  vehicleCount: number;
  shift: string | number;
  shiftRuns: boolean;
}): EmptyReason {
  if (vehicleCount === 0) {
    return 'noVehicles';
  }
  return shift === 'all' || shiftRuns ? 'noDataInPeriod' : 'shiftExcludes';
}
