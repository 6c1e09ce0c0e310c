import { describe, expect, it } from 'vitest';
import type { AdminShift } from '../../api/adminTypes';
import {
  calendarValid,
  crossesMidnight,
  formatShiftTimes,
  formatWeekdays,
  nextShiftId,
  normalizeTime,
  parseTime,
  shiftMinutes,
  shiftProblems,
  weekdayName,
} from './shifts';

const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];
const early: AdminShift = {
  id: 'early',
  name: 'Early',
  start: '06:00',
  end: '14:00',
  weekdays: EVERY_DAY,
};
const night: AdminShift = {
  id: 'night',
  name: 'Night',
  start: '22:00',
  end: '06:00',
  weekdays: EVERY_DAY,
};

describe('times', () => {
  it('parses HH:MM and refuses anything else', () => {
    expect(parseTime('06:00')).toBe(360);
    expect(parseTime('23:59')).toBe(1439);
    expect(parseTime('24:00')).toBeNull();
    expect(parseTime('6:00')).toBeNull();
    expect(parseTime('06:60')).toBeNull();
    expect(parseTime('')).toBeNull();
  });

  it('a night shift crosses midnight and lasts 8 hours', () => {
    expect(crossesMidnight(night)).toBe(true);
    expect(crossesMidnight(early)).toBe(false);
    expect(shiftMinutes(night)).toBe(480);
    expect(shiftMinutes({ start: '18:30', end: '02:15' })).toBe(465);
    expect(formatShiftTimes(night)).toBe('22:00–06:00 (+1)');
    expect(formatShiftTimes(early)).toBe('06:00–14:00');
  });
});

describe('shiftProblems', () => {
  it('a complete calendar has none', () => {
    expect(shiftProblems(night, [early, night])).toEqual({});
    expect(calendarValid([early, night])).toBe(true);
  });

  it('names each field that cannot be sent', () => {
    const broken: AdminShift = { id: 'x', name: ' ', start: '25:00', end: '7', weekdays: [] };
    expect(shiftProblems(broken, [broken])).toEqual({
      name: 'nameMissing',
      start: 'startInvalid',
      end: 'endInvalid',
      weekdays: 'noWeekday',
    });
    expect(calendarValid([early, broken])).toBe(false);
  });

  it('a shift of zero length and duplicate names (any case) are refused', () => {
    const zero: AdminShift = { ...early, id: 'zero', name: 'early', start: '10:00', end: '10:00' };
    expect(shiftProblems(zero, [early, zero])).toEqual({
      name: 'nameDuplicate',
      end: 'sameStartEnd',
    });
  });
});

describe('formatWeekdays', () => {
  const name = (day: number) => ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'][day] ?? '?';
  it('collapses runs of three or more days', () => {
    expect(formatWeekdays([0, 1, 2, 3, 4], name, 'every day')).toBe('Mo–Fr');
    expect(formatWeekdays([4, 0, 2], name, 'every day')).toBe('Mo, We, Fr');
    expect(formatWeekdays([5, 6], name, 'every day')).toBe('Sa, Su');
    expect(formatWeekdays([0, 1, 2, 4, 5, 6], name, 'every day')).toBe('Mo–We, Fr–Su');
    expect(formatWeekdays(EVERY_DAY, name, 'every day')).toBe('every day');
    expect(formatWeekdays([], name, 'every day')).toBe('');
  });

  it('weekday names start on Monday in both languages', () => {
    expect(weekdayName(0, 'en-GB')).toBe('Mon');
    expect(weekdayName(6, 'en-GB')).toBe('Sun');
    expect(weekdayName(0, 'de-DE')).toMatch(/^Mo\.?$/);
  });
});

it('a new shift gets an id no other shift has', () => {
  expect(nextShiftId([early, night])).toBe('shift-3');
  expect(nextShiftId([])).toBe('shift-1');
  const taken: AdminShift = { ...early, id: 'shift-3' };
  expect(nextShiftId([early, taken])).toBe('shift-4');
});

describe('normalizeTime', () => {
  it('writes what people type for a time as HH:MM', () => {
    for (const [typed, time] of [
      ['6:30', '06:30'],
      ['630', '06:30'],
      ['0630', '06:30'],
      ['6.30', '06:30'],
      ['6', '06:00'],
      [' 22:00 ', '22:00'],
      ['23:59', '23:59'],
    ]) {
      expect(normalizeTime(typed ?? '')).toBe(time);
    }
  });

  it('leaves what is no time as typed, for the field to name the problem', () => {
    for (const typed of ['24:00', '12:60', 'noon', '', '12345']) {
      expect(normalizeTime(typed)).toBe(typed);
    }
  });
});
