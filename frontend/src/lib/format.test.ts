import { describe, expect, it } from 'vitest';
import {
  formatDateTime,
  formatIsoDate,
  formatNumber,
  formatPercent,
  formatPeriod,
  formatShare,
  weekdayNames,
} from './format';

describe('Intl formatting', () => {
  it('formats numbers per language', () => {
    expect(formatNumber(1234.5, 'en')).toBe('1,234.5');
    expect(formatNumber(1234.5, 'de')).toBe('1.234,5');
  });

  it('writes a percentage as the language does, the same for a share and for points', () => {
    expect(formatPercent(60.24, 'en')).toBe('60.2%');
    expect(formatShare(0.6024, 'en')).toBe('60.2%');
    // German keeps the number and its sign together with a no-break space (one line on a tile).
    expect(formatPercent(60.24, 'de')).toBe('60,2\u00a0%');
    expect(formatShare(0.6024, 'de')).toBe('60,2\u00a0%');
    expect(formatPercent(72, 'en', { digits: 0 })).toBe('72%');
  });

  it('formats ISO dates per language without time-zone shifts', () => {
    expect(formatIsoDate('2026-03-01', 'en', { dateStyle: 'short' })).toBe('01/03/2026');
    expect(formatIsoDate('2026-03-01', 'de', { dateStyle: 'short' })).toBe('01.03.26');
  });

  it('names weekdays Monday first per language, short or long', () => {
    expect(weekdayNames('en')).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(weekdayNames('de', 'long')[6]).toBe('Sonntag');
  });

  it('formats an instant alike from ISO text and from epoch milliseconds (chart points)', () => {
    const iso = '2026-03-01T14:05:09.250Z';
    for (const language of ['en', 'de']) {
      expect(formatDateTime(Date.parse(iso), language)).toBe(formatDateTime(iso, language));
    }
    expect(formatDateTime(iso, 'de')).not.toBe(formatDateTime(iso, 'en'));
  });
});

describe('formatPeriod', () => {
  it('labels each mode in the user language', () => {
    expect(formatPeriod({ mode: 'month', from: '2026-03-01', to: '2026-03-31' }, 'de')).toBe(
      'März 2026',
    );
    expect(formatPeriod({ mode: 'month', from: '2026-03-01', to: '2026-03-31' }, 'en')).toBe(
      'March 2026',
    );
    expect(formatPeriod({ mode: 'year', from: '2026-01-01', to: '2026-12-31' }, 'en')).toBe('2026');
    expect(formatPeriod({ mode: 'day', from: '2026-03-03', to: '2026-03-03' }, 'de')).toBe(
      'Dienstag, 3. März 2026',
    );
    expect(formatPeriod({ mode: 'week', from: '2026-03-02', to: '2026-03-08' }, 'en')).toMatch(
      /2.+8 Mar 2026/,
    );
  });
});
