import { wallTime } from '../../lib/relativeRange';

/**
 * Ticks of a time axis at round wall-clock times of a time zone (the sites'): whole hours,
 * midnights, Mondays, first days of months. ECharts places a time axis' ticks in the
 * browser's zone, so a browser elsewhere than the site would tick at the site's 01:00; these
 * are given to the axis as its `customValues` instead.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// No zone is further than this from UTC (Kiribati +14 h): a wall time beyond `max` by more
// is an instant beyond it.
const FURTHEST_OFFSET = 14 * HOUR;

type Unit = 'hour' | 'day' | 'week' | 'month';

/** The steps tried, finest first, each with its rough length to count ticks by. */
const STEPS: ReadonlyArray<{ unit: Unit; every: number; length: number }> = [
  ...[1, 2, 3, 6, 12].map((every) => ({ unit: 'hour' as const, every, length: every * HOUR })),
  ...[1, 2].map((every) => ({ unit: 'day' as const, every, length: every * DAY })),
  { unit: 'week', every: 1, length: 7 * DAY },
  ...[1, 2, 3, 6, 12].map((every) => ({
    unit: 'month' as const,
    every,
    length: (every * 365.25 * DAY) / 12,
  })),
];

/** The zone's clock at `instant` as if it were UTC (epoch ms), to the minute. */
function wallClock(instant: number, timeZone: string): number {
  const { day, minutes } = wallTime(new Date(instant), timeZone);
  return Date.parse(`${day}T00:00:00Z`) + minutes * MINUTE;
}

/** The instant the zone's clocks read `wall`; null where they skip it (the spring change). */
function instantOf(wall: number, timeZone: string): number | null {
  // The zone's offset near the wall time, then once more at the instant it gives (a change
  // between the two moves it).
  let instant = wall - (wallClock(wall, timeZone) - wall);
  instant = wall - (wallClock(instant, timeZone) - instant);
  return wallClock(instant, timeZone) === wall ? instant : null;
}

/** Whether a wall time (read as UTC) is a tick of the step. */
function onStep(wall: number, unit: Unit, every: number): boolean {
  const at = new Date(wall);
  const midnight = at.getUTCHours() === 0;
  switch (unit) {
    case 'hour':
      return at.getUTCHours() % every === 0;
    case 'day':
      return midnight && Math.round(wall / DAY) % every === 0;
    case 'week':
      return midnight && at.getUTCDay() === 1;
    case 'month':
      return midnight && at.getUTCDate() === 1 && at.getUTCMonth() % every === 0;
  }
}

/**
 * Instants from `min` to `max` (epoch ms) at round times of `timeZone`, at most `most` of
 * them: every 1, 2, 3, 6 or 12 hours, every day or second day at midnight, on Mondays, or on
 * the first of every 1, 2, 3, 6 or 12 months; the finest step that keeps to `most`.
 */
export function zonedTimeTicks(min: number, max: number, timeZone: string, most = 8): number[] {
  if (!(max > min)) {
    return [];
  }
  const step = STEPS.find((candidate) => (max - min) / candidate.length <= most) ?? STEPS.at(-1);
  if (!step) {
    return [];
  }
  // Walk the zone's whole hours (or midnights) from the one holding `min`; only those on the
  // step are turned into instants.
  const startWall = wallClock(min, timeZone);
  const stride = step.unit === 'hour' ? HOUR : DAY;
  const ticks: number[] = [];
  for (let wall = startWall - (startWall % stride); wall - FURTHEST_OFFSET <= max; wall += stride) {
    if (!onStep(wall, step.unit, step.every)) {
      continue;
    }
    const instant = instantOf(wall, timeZone);
    if (instant !== null && instant >= min && instant <= max) {
      ticks.push(instant);
    }
  }
  return ticks;
}
