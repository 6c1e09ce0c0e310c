import { describe, expect, it } from 'vitest';
import {
  canMoveForward,
  focusDay,
  isIsoDate,
  moveFocus,
  rangeFor,
  rangeForModeChange,
  rangeLengthDays,
  shiftRange,
  todayIso,
} from './dateRange';

describe('rangeFor', () => {
  it('gives the day, ISO week (Monday first), month and year of an anchor', () => {
    expect(rangeFor('day', '2026-03-05')).toEqual({ from: '2026-03-05', to: '2026-03-05' });
    expect(rangeFor('week', '2026-03-05')).toEqual({ from: '2026-03-02', to: '2026-03-08' });
    expect(rangeFor('week', '2026-03-08')).toEqual({ from: '2026-03-02', to: '2026-03-08' });
    expect(rangeFor('month', '2024-02-10')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(rangeFor('year', '2026-07-01')).toEqual({ from: '2026-01-01', to: '2026-12-31' });
  });
});

describe('shiftRange', () => {
  it('moves by whole periods', () => {
    expect(shiftRange('day', { from: '2026-03-01', to: '2026-03-01' }, -1)).toEqual({
      from: '2026-02-28',
      to: '2026-02-28',
    });
    expect(shiftRange('week', { from: '2026-03-02', to: '2026-03-08' }, 1)).toEqual({
      from: '2026-03-09',
      to: '2026-03-15',
    });
    expect(shiftRange('month', { from: '2026-01-01', to: '2026-01-31' }, 1)).toEqual({
      from: '2026-02-01',
      to: '2026-02-28',
    });
    expect(shiftRange('month', { from: '2026-01-01', to: '2026-01-31' }, -1)).toEqual({
      from: '2025-12-01',
      to: '2025-12-31',
    });
    expect(shiftRange('year', { from: '2026-01-01', to: '2026-12-31' }, -1)).toEqual({
      from: '2025-01-01',
      to: '2025-12-31',
    });
  });

  it('moves a custom range by its own length', () => {
    expect(shiftRange('custom', { from: '2026-03-01', to: '2026-03-10' }, 1)).toEqual({
      from: '2026-03-11',
      to: '2026-03-20',
    });
    expect(rangeLengthDays({ from: '2026-03-01', to: '2026-03-10' })).toBe(10);
  });
});

describe('helpers', () => {
  it('keeps the custom range on mode change and snaps other modes', () => {
    const current = { from: '2026-03-04', to: '2026-03-20' };
    expect(rangeForModeChange('custom', current)).toBe(current);
    expect(rangeForModeChange('month', current)).toEqual({ from: '2026-03-01', to: '2026-03-31' });
  });

  it('validates ISO dates and computes today in the local calendar', () => {
    expect(isIsoDate('2026-02-28')).toBe(true);
    expect(isIsoDate('2026-2-28')).toBe(false);
    expect(isIsoDate(3)).toBe(false);
    // Days the month does not have, though they parse (as days of the next month).
    expect(isIsoDate('2026-02-30')).toBe(false);
    expect(isIsoDate('2026-04-31')).toBe(false);
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(todayIso(new Date(2026, 4, 7, 23, 59))).toBe('2026-05-07');
  });

  it('forbids moving past today', () => {
    expect(canMoveForward({ from: '2026-03-01', to: '2026-03-07' }, '2026-03-07')).toBe(false);
    expect(canMoveForward({ from: '2026-03-01', to: '2026-03-06' }, '2026-03-07')).toBe(true);
  });
});

describe('switching the mode keeps the day the user is looking at', () => {
  const today = '2026-11-25'; // a Wednesday

  it('Week -> Day lands on today in the current week, not on Monday', () => {
    const week = { from: '2026-11-23', to: '2026-11-29' };
    expect(rangeForModeChange('day', week, { today })).toEqual({
      from: '2026-11-25',
      to: '2026-11-25',
    });
  });

  it('Year -> Month lands on the current month, not on January', () => {
    const year = { from: '2026-01-01', to: '2026-12-31' };
    expect(rangeForModeChange('month', year, { today })).toEqual({
      from: '2026-11-01',
      to: '2026-11-30',
    });
  });

  it('a day picked earlier comes back: Day 12 Mar -> Year -> Month -> Day', () => {
    const focus = '2025-03-12';
    const year = rangeForModeChange('year', { from: focus, to: focus }, { today, focus });
    expect(year).toEqual({ from: '2025-01-01', to: '2025-12-31' });
    const month = rangeForModeChange('month', year, { today, focus });
    expect(month).toEqual({ from: '2025-03-01', to: '2025-03-31' });
    expect(rangeForModeChange('day', month, { today, focus })).toEqual({ from: focus, to: focus });
  });

  it('a past period without a remembered day starts at its first day', () => {
    expect(focusDay({ from: '2026-11-09', to: '2026-11-15' }, { today })).toBe('2026-11-09');
  });

  it('previous/next carry the day along: a week back is the same weekday', () => {
    const week = { from: '2026-11-23', to: '2026-11-29' };
    expect(moveFocus('week', week, '2026-11-25', -1)).toBe('2026-11-18');
    expect(moveFocus('month', { from: '2026-03-01', to: '2026-03-31' }, '2026-03-31', -1)).toBe(
      '2026-02-28',
    );
    expect(moveFocus('month', { from: '2026-12-01', to: '2026-12-31' }, '2026-12-15', 1)).toBe(
      '2027-01-15',
    );
    expect(moveFocus('year', { from: '2024-01-01', to: '2024-12-31' }, '2024-02-29', 1)).toBe(
      '2025-02-28',
    );
  });
});
