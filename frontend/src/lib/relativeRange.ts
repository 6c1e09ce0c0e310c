import type { DateMode, Shift, WorkflowShift } from '../api/types';
import { addDays, rangeFor } from './dateRange';

/**
 * The ranges people think in (product.md section 4). They are saved by name, so a range
 * saved today is still "yesterday" tomorrow; each is turned into the days the analytics API
 * takes (and, for the shift ranges, a shift) for a given clock, in the site's time zone.
 * Ranges that are running ("this week so far") are the whole calendar period: the server
 * clips it at now and compares it with the previous period clipped at the same elapsed
 * time, which a shortened range (Monday to today) would not get. "Last 24 hours" is a
 * rolling period: the API gets `hours=24` (the 24 hours up to the server's now, compared
 * with the 24 hours before); its days (yesterday and today) only name it. The server reads
 * a saved range the same way (backend analytics/core/relative_ranges.py); both are tested
 * against the same cases (relativeRange.cases.json).
 */
export const RELATIVE_RANGES = [
  'today',
  'yesterday',
  'currentShift',
  'previousShift',
  'last24Hours',
  'last7Days',
  'thisWeekSoFar',
  'lastWeek',
  'thisMonthSoFar',
  'lastMonth',
  'thisYearSoFar',
] as const;
export type RelativeRange = (typeof RELATIVE_RANGES)[number];

export function isRelativeRange(value: unknown): value is RelativeRange {
  return typeof value === 'string' && (RELATIVE_RANGES as readonly string[]).includes(value);
}

export interface ResolvedRange {
  mode: DateMode;
  from: string;
  to: string;
  /** Set by the shift ranges: the shift it names; otherwise the selected shift stays. */
  shift?: WorkflowShift;
  /** A rolling period: the last hours up to now, which the API gets instead of from/to. */
  hours?: number;
}

export interface SiteClock {
  now: Date;
  /** IANA zone of the site in scope; the browser's zone when unknown. */
  timeZone?: string;
  /** Shifts of that site (for current and previous shift). */
  shifts?: readonly Shift[];
}

interface WallTime {
  /** Site-local calendar day, YYYY-MM-DD. */
  day: string;
  /** Minutes since the site's midnight. */
  minutes: number;
}

/** The site's wall clock at `now` (falls back to the browser's zone for an unknown zone). */
export function wallTime(now: Date, timeZone?: string): WallTime {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
  } catch {
    return wallTime(now);
  }
  const parts = Object.fromEntries(
    format.formatToParts(now).map((part) => [part.type, part.value]),
  );
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

function minutesOf(hhmm: string): number {
  const [hours, minutes] = hhmm.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/** Monday = 0, as the site's shift weekdays count. */
function weekdayOf(day: string): number {
  return (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
}

interface ShiftRun {
  shift: Shift;
  /** The day it starts on: a night shift belongs to the day it starts. */
  day: string;
  /** Start and end in minutes relative to the site's midnight of "today". */
  start: number;
  end: number;
}

/** Every run of the site's shifts that starts within the last 8 days, newest first. */
function recentRuns(shifts: readonly Shift[], today: string): ShiftRun[] {
  const runs: ShiftRun[] = [];
  for (let back = 0; back <= 8; back += 1) {
    const day = addDays(today, -back);
    for (const shift of shifts) {
      const weekdays = shift.weekdays.length > 0 ? shift.weekdays : [0, 1, 2, 3, 4, 5, 6];
      if (!weekdays.includes(weekdayOf(day))) {
        continue;
      }
      const start = minutesOf(shift.start) - back * 1440;
      const length = (minutesOf(shift.end) - minutesOf(shift.start) + 1440) % 1440 || 1440;
      runs.push({ shift, day, start, end: start + length });
    }
  }
  return runs.sort((a, b) => b.start - a.start);
}

/**
 * The running shift (the latest started, where shifts overlap) or, between shifts, the one
 * that ended last; and the one that started before it. Null without shifts.
 */
function shiftRuns(
  shifts: readonly Shift[],
  { day, minutes }: WallTime,
): { current: ShiftRun; previous: ShiftRun | null } | null {
  const started = recentRuns(shifts, day).filter((run) => run.start <= minutes);
  const endedLast = started.reduce<ShiftRun | undefined>(
    (last, run) =>
      !last || run.end > last.end || (run.end === last.end && run.start > last.start) ? run : last,
    undefined,
  );
  const current = started.find((run) => minutes < run.end) ?? endedLast;
  if (!current) {
    return null;
  }
  const previous = started.find((run) => run.start < current.start) ?? null;
  return { current, previous };
}

function dayRange(day: string, shift?: WorkflowShift): ResolvedRange {
  return shift === undefined
    ? { mode: 'day', from: day, to: day }
    : { mode: 'day', from: day, to: day, shift };
}

/** The days (and shift) `range` means at `clock.now` on the site's wall clock. */
export function resolveRelativeRange(range: RelativeRange, clock: SiteClock): ResolvedRange {
  const wall = wallTime(clock.now, clock.timeZone);
  const today = wall.day;
  switch (range) {
    case 'today':
      return dayRange(today);
    case 'yesterday':
      return dayRange(addDays(today, -1));
    case 'currentShift':
    case 'previousShift': {
      const runs = shiftRuns(clock.shifts ?? [], wall);
      const run = range === 'currentShift' ? runs?.current : runs?.previous;
      // A site without shifts has no shift to name: the whole day stands in for it.
      return run ? dayRange(run.day, run.shift.id) : dayRange(today, 'all');
    }
    case 'last24Hours':
      // Rolling: the days it touches name it; the API reads the hours.
      return { mode: 'custom', from: addDays(today, -1), to: today, hours: 24 };
    case 'last7Days':
      return { mode: 'custom', from: addDays(today, -6), to: today };
    case 'thisWeekSoFar':
      return { mode: 'week', ...rangeFor('week', today) };
    case 'lastWeek':
      return { mode: 'week', ...rangeFor('week', addDays(today, -7)) };
    case 'thisMonthSoFar':
      return { mode: 'month', ...rangeFor('month', today) };
    case 'lastMonth':
      return { mode: 'month', ...rangeFor('month', addDays(rangeFor('month', today).from, -1)) };
    case 'thisYearSoFar':
      return { mode: 'year', ...rangeFor('year', today) };
  }
}
