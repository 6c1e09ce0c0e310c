import type { AdminShift } from '../../api/adminTypes';

/**
 * The shift calendar editor's pure rules: times "HH:MM", weekdays 0 = Monday .. 6 = Sunday
 * (the weekday a shift STARTS), a shift whose end lies before its start crosses midnight.
 * The server decides overlaps (its message names both shifts and the weekday); here the
 * editor refuses what cannot be sent at all, with the same field names.
 */

export const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight of "HH:MM", or null when it is no valid time. */
export function parseTime(value: string): number | null {
  const match = TIME.exec(value.trim());
  if (!match) {
    return null;
  }
  return Number(match[1]) * 60 + Number(match[2]);
}

/**
 * A time as typed, written "HH:MM" where it is one ("6:30", "630", "0630", "6.30" and "6"
 * give "06:30" and "06:00"); any other text stays as typed, and the field names its problem.
 */
export function normalizeTime(value: string): string {
  const match = /^(\d{1,2})(?:[:.]?(\d{2}))?$/.exec(value.trim());
  if (!match) {
    return value;
  }
  const hours = Number(match[1]);
  const minutes = Number(match[2] ?? '0');
  if (hours > 23 || minutes > 59) {
    return value;
  }
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** A shift crosses midnight when it ends before (or when) it starts: 22:00–06:00. */
export function crossesMidnight(shift: Pick<AdminShift, 'start' | 'end'>): boolean {
  const start = parseTime(shift.start);
  const end = parseTime(shift.end);
  return start !== null && end !== null && end <= start;
}

/** Length of a shift in minutes (a shift crossing midnight continues on the next day). */
export function shiftMinutes(shift: Pick<AdminShift, 'start' | 'end'>): number | null {
  const start = parseTime(shift.start);
  const end = parseTime(shift.end);
  if (start === null || end === null) {
    return null;
  }
  return end > start ? end - start : end + 24 * 60 - start;
}

export type ShiftProblem =
  | 'nameMissing'
  | 'nameDuplicate'
  | 'startInvalid'
  | 'endInvalid'
  | 'sameStartEnd'
  | 'noWeekday';

/** Problems of one shift in a calendar (keyed by field), empty when it can be sent. */
export function shiftProblems(
  shift: AdminShift,
  all: readonly AdminShift[],
): Partial<Record<'name' | 'start' | 'end' | 'weekdays', ShiftProblem>> {
  const problems: Partial<Record<'name' | 'start' | 'end' | 'weekdays', ShiftProblem>> = {};
  const name = shift.name.trim();
  if (!name) {
    problems.name = 'nameMissing';
  } else if (
    all.filter((other) => other.name.trim().toLowerCase() === name.toLowerCase()).length > 1
  ) {
    problems.name = 'nameDuplicate';
  }
  const start = parseTime(shift.start);
  const end = parseTime(shift.end);
  if (start === null) {
    problems.start = 'startInvalid';
  }
  if (end === null) {
    problems.end = 'endInvalid';
  } else if (start !== null && start === end) {
    problems.end = 'sameStartEnd';
  }
  if (shift.weekdays.length === 0) {
    problems.weekdays = 'noWeekday';
  }
  return problems;
}

/** Whether every shift of the calendar can be sent. */
export function calendarValid(shifts: readonly AdminShift[]): boolean {
  return shifts.every((shift) => Object.keys(shiftProblems(shift, shifts)).length === 0);
}

/**
 * Weekdays as short ranges in the user's language: [0,1,2,3,4] → "Mon–Fri",
 * [0,2,4] → "Mon, Wed, Fri", all seven → "every day" (from `everyDay`).
 */
export function formatWeekdays(
  weekdays: readonly number[],
  dayName: (weekday: number) => string,
  everyDay: string,
): string {
  const days = [...new Set(weekdays)].filter((day) => day >= 0 && day <= 6).sort((a, b) => a - b);
  if (days.length === 7) {
    return everyDay;
  }
  const parts: string[] = [];
  let index = 0;
  while (index < days.length) {
    let last = index;
    while (last + 1 < days.length && days[last + 1] === (days[last] ?? 0) + 1) {
      last += 1;
    }
    const first = days[index] ?? 0;
    const end = days[last] ?? 0;
    if (end - first >= 2) {
      parts.push(`${dayName(first)}–${dayName(end)}`);
    } else {
      for (let day = first; day <= end; day += 1) {
        parts.push(dayName(day));
      }
    }
    index = last + 1;
  }
  return parts.join(', ');
}

/** "22:00–06:00 (+1)" for a shift crossing midnight, "06:00–14:00" otherwise. */
export function formatShiftTimes(shift: Pick<AdminShift, 'start' | 'end'>): string {
  const text = `${shift.start}–${shift.end}`;
  return crossesMidnight(shift) ? `${text} (+1)` : text;
}

/** The weekday's short name (0 = Monday) in `locale`, from a known Monday. */
export function weekdayName(weekday: number, locale: string): string {
  // 2024-01-01 was a Monday.
  const date = new Date(Date.UTC(2024, 0, 1 + weekday, 12));
  return new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(date);
}

/** A new shift's id: a text no other shift of the calendar has (the server keeps ids). */
export function nextShiftId(shifts: readonly AdminShift[]): string {
  const taken = new Set(shifts.map((shift) => String(shift.id)));
  let number = shifts.length + 1;
  while (taken.has(`shift-${number}`)) {
    number += 1;
  }
  return `shift-${number}`;
}
