import type { DateMode } from '../api/types';

/**
 * Date ranges of the date selector as ISO dates (YYYY-MM-DD, both inclusive). Calendar
 * arithmetic in UTC so the result never depends on the browser's time zone; weeks start
 * on Monday (ISO 8601).
 */
export interface DateRange {
  from: string;
  to: string;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_DATE.test(value)) {
    return false;
  }
  // A day the month does not have (2026-02-30) parses as a later one: it must read back.
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}

function parse(iso: string): Date {
  return new Date(`${iso}T00:00:00Z`);
}

export function toIsoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Today in the browser's calendar, as an ISO date. */
export function todayIso(now: Date = new Date()): string {
  const local = new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()));
  return toIsoDate(local);
}

export function addDays(iso: string, days: number): string {
  const date = parse(iso);
  date.setUTCDate(date.getUTCDate() + days);
  return toIsoDate(date);
}

/** The day, week, month or year containing `anchor`; custom keeps a one-day range. */
export function rangeFor(mode: DateMode, anchor: string): DateRange {
  const date = parse(anchor);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  switch (mode) {
    case 'day':
    case 'custom':
      return { from: anchor, to: anchor };
    case 'week': {
      const mondayOffset = (date.getUTCDay() + 6) % 7;
      const from = addDays(anchor, -mondayOffset);
      return { from, to: addDays(from, 6) };
    }
    case 'month':
      return {
        from: toIsoDate(new Date(Date.UTC(year, month, 1))),
        to: toIsoDate(new Date(Date.UTC(year, month + 1, 0))),
      };
    case 'year':
      return { from: `${year}-01-01`, to: `${year}-12-31` };
  }
}

/** Number of days of a range, both ends included. */
export function rangeLengthDays({ from, to }: DateRange): number {
  return Math.round((parse(to).getTime() - parse(from).getTime()) / 86_400_000) + 1;
}

/** The previous (-1) or next (+1) period of the same kind and length. */
export function shiftRange(mode: DateMode, range: DateRange, direction: -1 | 1): DateRange {
  switch (mode) {
    case 'day':
    case 'week':
    case 'custom': {
      const days = rangeLengthDays(range) * direction;
      return { from: addDays(range.from, days), to: addDays(range.to, days) };
    }
    case 'month': {
      const date = parse(range.from);
      const anchor = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + direction, 1));
      return rangeFor('month', toIsoDate(anchor));
    }
    case 'year': {
      const year = parse(range.from).getUTCFullYear() + direction;
      return rangeFor('year', `${year}-01-01`);
    }
  }
}

export function isWithin(day: string, { from, to }: DateRange): boolean {
  return from <= day && day <= to;
}

export interface FocusHint {
  /** Today in the calendar the selector shows. */
  today?: string;
  /** The day the user last looked at (a day picked, carried along by previous/next). */
  focus?: string | null;
}

/**
 * The day the user is looking at inside `range`: the remembered focus day if it lies
 * inside, else today if it does, else the range's first day.
 */
export function focusDay(range: DateRange, { today = todayIso(), focus }: FocusHint = {}): string {
  if (focus && isWithin(focus, range)) {
    return focus;
  }
  return isWithin(today, range) ? today : range.from;
}

/**
 * Switching the mode keeps the day the user is looking at (Week -> Day lands on that day,
 * today in the current week; Year -> Month on its month); custom keeps the range.
 */
export function rangeForModeChange(
  mode: DateMode,
  current: DateRange,
  hint: FocusHint = {},
): DateRange {
  return mode === 'custom' ? current : rangeFor(mode, focusDay(current, hint));
}

function clampedDay(year: number, month: number, day: number): string {
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return toIsoDate(new Date(Date.UTC(year, month, Math.min(day, last))));
}

/**
 * The focus day carried along when the period moves by one (previous/next): the same
 * weekday a week earlier, the same day of the month (clamped) a month earlier, and so on.
 */
export function moveFocus(
  mode: DateMode,
  range: DateRange,
  focus: string,
  direction: -1 | 1,
): string {
  const date = parse(focus);
  switch (mode) {
    case 'day':
    case 'week':
    case 'custom':
      return addDays(focus, rangeLengthDays(range) * direction);
    case 'month':
      return clampedDay(date.getUTCFullYear(), date.getUTCMonth() + direction, date.getUTCDate());
    case 'year':
      return clampedDay(date.getUTCFullYear() + direction, date.getUTCMonth(), date.getUTCDate());
  }
}

/** Ranges never end in the future: the next button is disabled past today. */
export function canMoveForward(range: DateRange, today: string): boolean {
  return range.to < today;
}
