import { describe, expect, it } from 'vitest';
import { zonedTimeTicks } from './zonedTicks';

const at = (iso: string) => Date.parse(iso);
const iso = (ticks: number[]) => ticks.map((tick) => new Date(tick).toISOString().slice(0, 16));

describe('zonedTimeTicks', () => {
  it("ticks a week at the site's midnights, whatever the browser's zone", () => {
    // Monday 23 November to Sunday 29 November 2026 in Berlin (UTC+1): midnight is 23:00 UTC.
    const ticks = zonedTimeTicks(at('2026-11-22T23:00Z'), at('2026-11-29T22:59Z'), 'Europe/Berlin');
    expect(iso(ticks)).toEqual([
      '2026-11-22T23:00',
      '2026-11-23T23:00',
      '2026-11-24T23:00',
      '2026-11-25T23:00',
      '2026-11-26T23:00',
      '2026-11-27T23:00',
      '2026-11-28T23:00',
    ]);
    // The same week in New York: its midnights, five hours behind UTC.
    const newYork = zonedTimeTicks(
      at('2026-11-23T05:00Z'),
      at('2026-11-30T04:59Z'),
      'America/New_York',
    );
    expect(iso(newYork).every((tick) => tick.endsWith('T05:00'))).toBe(true);
    expect(newYork).toHaveLength(7);
  });

  it('takes the finest round step that keeps to the most ticks', () => {
    // Ten hours from 07:20 Berlin: every second hour, at even hours of the site's clock.
    const ticks = zonedTimeTicks(at('2026-11-24T06:20Z'), at('2026-11-24T16:20Z'), 'Europe/Berlin');
    expect(iso(ticks)).toEqual([
      '2026-11-24T07:00',
      '2026-11-24T09:00',
      '2026-11-24T11:00',
      '2026-11-24T13:00',
      '2026-11-24T15:00',
    ]);
    // A year in at most 5 ticks: the first of every second month would be 6, so every quarter.
    const year = zonedTimeTicks(
      at('2025-12-31T23:00Z'),
      at('2026-12-31T22:59Z'),
      'Europe/Berlin',
      5,
    );
    expect(iso(year)).toEqual([
      '2025-12-31T23:00',
      '2026-03-31T22:00',
      '2026-06-30T22:00',
      '2026-09-30T22:00',
    ]);
    // Half-hour zones tick at their own whole hours: midnight in Kolkata is 18:30 UTC (three
    // days in at most 4 ticks: one a day).
    const kolkata = zonedTimeTicks(
      at('2026-11-23T18:30Z'),
      at('2026-11-26T18:30Z'),
      'Asia/Kolkata',
      4,
    );
    expect(iso(kolkata)).toEqual([
      '2026-11-23T18:30',
      '2026-11-24T18:30',
      '2026-11-25T18:30',
      '2026-11-26T18:30',
    ]);
  });

  it('follows the clock changes: no tick in the skipped hour, the day of 25 hours whole', () => {
    // 29 March 2026, Berlin: 02:00 does not exist (01:00 UTC is 03:00 CEST).
    const spring = zonedTimeTicks(
      at('2026-03-28T23:30Z'),
      at('2026-03-29T03:30Z'),
      'Europe/Berlin',
    );
    expect(iso(spring)).toEqual([
      '2026-03-29T00:00',
      '2026-03-29T01:00',
      '2026-03-29T02:00',
      '2026-03-29T03:00',
    ]);
    expect(
      spring.map((tick) =>
        new Date(tick).toLocaleTimeString('de-DE', { timeZone: 'Europe/Berlin' }),
      ),
    ).toEqual(['01:00:00', '03:00:00', '04:00:00', '05:00:00']);
    // 25 October 2026 has 25 hours: its midnight and the next are 25 hours apart.
    const autumn = zonedTimeTicks(
      at('2026-10-23T22:00Z'),
      at('2026-10-27T23:30Z'),
      'Europe/Berlin',
    );
    expect(iso(autumn)).toEqual([
      '2026-10-23T22:00',
      '2026-10-24T22:00',
      '2026-10-25T23:00',
      '2026-10-26T23:00',
      '2026-10-27T23:00',
    ]);
  });

  it('ticks a year at the first of every second month', () => {
    const year = zonedTimeTicks(at('2025-12-31T23:00Z'), at('2026-12-31T22:59Z'), 'Europe/Berlin');
    expect(
      year.map((tick) => new Date(tick).toLocaleDateString('de-DE', { timeZone: 'Europe/Berlin' })),
    ).toEqual(['1.1.2026', '1.3.2026', '1.5.2026', '1.7.2026', '1.9.2026', '1.11.2026']);
  });

  it('gives none for an empty or reversed span', () => {
    expect(zonedTimeTicks(at('2026-11-24T06:00Z'), at('2026-11-24T06:00Z'), 'UTC')).toEqual([]);
    expect(zonedTimeTicks(at('2026-11-25T06:00Z'), at('2026-11-24T06:00Z'), 'UTC')).toEqual([]);
  });
});
