/**
 * Ticks of a time axis at round wall-clock times of a time zone (the sites'): whole hours,
 * midnights, Mondays, first days of months. ECharts places a time axis' ticks in the
 * browser's zone, so a browser elsewhere than the site would tick at the site's 01:00; these
 * are given to the axis as its `customValues` instead.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

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

interface WallTime {
  year: number;
  month: number; // 0-11, as Date.UTC takes it
  day: number;
  hour: number;
  minute: number; // 0 on a tick; read, for zones half an hour off (Kolkata)
}

const formats = new Map<string, Intl.DateTimeFormat>();

function wallTimeAt(instant: number, timeZone: string): WallTime {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(
    format.formatToParts(instant).map((part) => [part.type, Number(part.value)]),
  );
  return {
    year: parts.year ?? 1970,
    month: (parts.month ?? 1) - 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
  };
}

const asUtc = (wall: WallTime) => Date.UTC(wall.year, wall.month, wall.day, wall.hour, wall.minute);

/**
 * The instant the zone's clocks read `wall` (Date.UTC normalises an hour or day past its
 * range); null where the clocks skip that hour (the spring change).
 */
function instantOf(wall: WallTime, timeZone: string): number | null {
  const target = asUtc(wall);
  // The zone's offset near the target, then once more at the instant it gives (a change
  // between the two moves it).
  let instant = target - (asUtc(wallTimeAt(target, timeZone)) - target);
  instant = target - (asUtc(wallTimeAt(instant, timeZone)) - instant);
  return asUtc(wallTimeAt(instant, timeZone)) === target ? instant : null;
}

function onStep(wall: WallTime, unit: Unit, every: number): boolean {
  const dayNumber = Math.round(Date.UTC(wall.year, wall.month, wall.day) / DAY);
  switch (unit) {
    case 'hour':
      return wall.hour % every === 0;
    case 'day':
      return wall.hour === 0 && dayNumber % every === 0;
    case 'week':
      return wall.hour === 0 && new Date(dayNumber * DAY).getUTCDay() === 1;
    case 'month':
      return wall.hour === 0 && wall.day === 1 && wall.month % every === 0;
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
  // Walk the zone's hours (or days) from the hour holding `min`, keeping those on the step.
  const start = wallTimeAt(min, timeZone);
  const stride = step.unit === 'hour' ? 1 : 24;
  const first = step.unit === 'hour' ? start.hour : 0;
  const ticks: number[] = [];
  for (let hours = first; ; hours += stride) {
    const wall = { ...start, hour: hours, minute: 0 };
    const normal = new Date(asUtc(wall));
    const candidate = {
      year: normal.getUTCFullYear(),
      month: normal.getUTCMonth(),
      day: normal.getUTCDate(),
      hour: normal.getUTCHours(),
      minute: 0,
    };
    const instant = instantOf(candidate, timeZone);
    if (instant !== null && instant > max) {
      return ticks;
    }
    if (instant !== null && instant >= min && onStep(candidate, step.unit, step.every)) {
      ticks.push(instant);
    }
  }
}
