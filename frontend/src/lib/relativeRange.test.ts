import { describe, expect, it } from 'vitest';
import { analyticsQuery } from '../api/analytics-processes';
import type { Shift, Vehicle } from '../api/types';
import {
  isRelativeRange,
  RELATIVE_RANGES,
  type RelativeRange,
  resolveRelativeRange,
  wallTime,
} from './relativeRange';
import shared from './relativeRange.cases.json';

const BERLIN = 'Europe/Berlin';
// Wednesday 25 November 2026, 16:10 in Berlin (CET, UTC+1).
const WEDNESDAY_AFTERNOON = new Date('2026-11-25T15:10:00Z');
// 00:30 on Thursday in Berlin while it is still Wednesday in UTC.
const THURSDAY_AFTER_MIDNIGHT = new Date('2026-11-25T23:30:00Z');
const WORKDAYS = [0, 1, 2, 3, 4];
const SHIFTS: Shift[] = [
  { id: 'early', name: 'Early', start: '06:00', end: '14:00', weekdays: WORKDAYS },
  { id: 'late', name: 'Late', start: '14:00', end: '22:00', weekdays: WORKDAYS },
  { id: 'night', name: 'Night', start: '22:00', end: '06:00', weekdays: WORKDAYS },
];

function at(now: Date, range: (typeof RELATIVE_RANGES)[number]) {
  return resolveRelativeRange(range, { now, timeZone: BERLIN, shifts: SHIFTS });
}

describe('resolveRelativeRange', () => {
  it('turns each calendar range into days for a fixed clock, in the site time zone', () => {
    const expected = {
      today: { mode: 'day', from: '2026-11-25', to: '2026-11-25' },
      yesterday: { mode: 'day', from: '2026-11-24', to: '2026-11-24' },
      last24Hours: { mode: 'custom', from: '2026-11-24', to: '2026-11-25', hours: 24 },
      last7Days: { mode: 'custom', from: '2026-11-19', to: '2026-11-25' },
      thisWeekSoFar: { mode: 'week', from: '2026-11-23', to: '2026-11-29' },
      lastWeek: { mode: 'week', from: '2026-11-16', to: '2026-11-22' },
      thisMonthSoFar: { mode: 'month', from: '2026-11-01', to: '2026-11-30' },
      lastMonth: { mode: 'month', from: '2026-10-01', to: '2026-10-31' },
      thisYearSoFar: { mode: 'year', from: '2026-01-01', to: '2026-12-31' },
    } as const;
    for (const [range, days] of Object.entries(expected)) {
      expect(at(WEDNESDAY_AFTERNOON, range as keyof typeof expected), range).toEqual(days);
    }
  });

  it("uses the site's calendar, not UTC: 00:30 Thursday in Berlin is Thursday", () => {
    expect(wallTime(THURSDAY_AFTER_MIDNIGHT, BERLIN)).toEqual({ day: '2026-11-26', minutes: 30 });
    expect(at(THURSDAY_AFTER_MIDNIGHT, 'today')).toEqual({
      mode: 'day',
      from: '2026-11-26',
      to: '2026-11-26',
    });
    expect(
      resolveRelativeRange('today', { now: THURSDAY_AFTER_MIDNIGHT, timeZone: 'UTC' }).from,
    ).toBe('2026-11-25');
  });

  it('rolls over: a range saved on one day means the next day after midnight', () => {
    const nextDay = new Date(WEDNESDAY_AFTERNOON.getTime() + 86_400_000);
    expect(at(nextDay, 'yesterday').from).toBe('2026-11-25');
    expect(at(new Date('2027-01-15T10:00:00Z'), 'lastMonth')).toEqual({
      mode: 'month',
      from: '2026-12-01',
      to: '2026-12-31',
    });
  });

  it('names the running shift and the one before, on the day each starts', () => {
    expect(at(WEDNESDAY_AFTERNOON, 'currentShift')).toEqual({
      mode: 'day',
      from: '2026-11-25',
      to: '2026-11-25',
      shift: 'late',
    });
    expect(at(WEDNESDAY_AFTERNOON, 'previousShift')).toMatchObject({
      from: '2026-11-25',
      shift: 'early',
    });
    // The night shift that began on Wednesday 22:00 belongs to Wednesday.
    expect(at(THURSDAY_AFTER_MIDNIGHT, 'currentShift')).toMatchObject({
      from: '2026-11-25',
      shift: 'night',
    });
    expect(at(THURSDAY_AFTER_MIDNIGHT, 'previousShift')).toMatchObject({
      from: '2026-11-25',
      shift: 'late',
    });
  });

  it('between shifts (Saturday, shifts Monday to Friday) the last shift stands for the current', () => {
    const saturday = new Date('2026-11-28T09:00:00Z');
    expect(at(saturday, 'currentShift')).toMatchObject({ from: '2026-11-27', shift: 'night' });
    expect(at(saturday, 'previousShift')).toMatchObject({ from: '2026-11-27', shift: 'late' });
  });

  it('a site without shifts gives the whole day', () => {
    expect(
      resolveRelativeRange('currentShift', { now: WEDNESDAY_AFTERNOON, timeZone: BERLIN }),
    ).toEqual({ mode: 'day', from: '2026-11-25', to: '2026-11-25', shift: 'all' });
  });

  it('knows exactly the eleven names of product.md section 4', () => {
    expect(RELATIVE_RANGES).toHaveLength(11);
    expect(isRelativeRange('lastWeek')).toBe(true);
    expect(isRelativeRange('nextWeek')).toBe(false);
    expect(isRelativeRange(null)).toBe(false);
  });
});

describe('the cases the server resolves too (relativeRange.cases.json)', () => {
  const shiftSets: Record<string, Shift[]> = shared.shifts;
  it.each(shared.cases)('$range at $now in $timeZone', (sample) => {
    const resolved = resolveRelativeRange(sample.range as RelativeRange, {
      now: new Date(sample.now),
      timeZone: sample.timeZone,
      shifts: sample.shifts ? shiftSets[sample.shifts] : [],
    });
    expect(resolved).toEqual(sample.expected);
  });

  it('names every range', () => {
    expect(new Set(shared.cases.map((sample) => sample.range))).toEqual(new Set(RELATIVE_RANGES));
  });
});

describe('a relative range as analytics parameters', () => {
  const vehicles = [{ id: 3, name: 'AGV 3' } as Vehicle];
  const query = (range: RelativeRange) => {
    const { from, to, hours } = at(WEDNESDAY_AFTERNOON, range);
    return new URLSearchParams(
      analyticsQuery({ from, to, hours, vehicles, combined: false, shift: 'all' }),
    );
  };

  it('sends the last 24 hours as a rolling period: hours, no days', () => {
    const params = query('last24Hours');
    expect(params.get('hours')).toBe('24');
    expect(params.has('from') || params.has('to')).toBe(false);
    expect(params.get('vehicles')).toBe('3');
  });

  it('sends the other ranges as their days', () => {
    const params = query('yesterday');
    expect([params.get('from'), params.get('to'), params.has('hours')]).toEqual([
      '2026-11-24',
      '2026-11-24',
      false,
    ]);
    expect(query('thisWeekSoFar').get('from')).toBe('2026-11-23');
  });
});
