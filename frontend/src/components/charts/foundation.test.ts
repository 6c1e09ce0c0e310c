import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../../api/client';
import { csvFileName, quoteCsvField, toCsv } from './csv';
import { emptyReasonFor, shiftRunsIn } from './emptyReason';
import { nearestBucket, sparklineGeometry } from './sparkline';
import { chartStatus } from './status';
import { barCartesian, baseCartesian, chartTheme } from './theme';
import { trendOf } from './trend';
import type { TableData } from './types';
import { csvUnitSuffix, csvValue, formatValue } from './values';

const table: TableData = {
  columns: [
    { key: 'name', label: 'Vehicle', format: 'text' },
    { key: 'availability', label: 'Availability', format: 'share' },
    { key: 'working', label: 'Working', format: 'duration' },
    { key: 'distance', label: 'Distance km', format: 'decimal' },
    { key: 'orders', label: 'Orders', format: 'integer' },
  ],
  rows: [
    { name: 'AGV "01"; hall', availability: 0.9625, working: 5400, distance: 1234.5, orders: 12 },
    { name: '=SUM(A1)', availability: null, working: 3.2104, distance: 0, orders: 0 },
  ],
};

describe('CSV export', () => {
  it('writes English CSV with commas, BOM, CRLF and converted units', () => {
    const csv = toCsv(table, 'en');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[0]).toBe('Vehicle,Availability (%),Working (s),Distance km,Orders');
    expect(lines[1]).toBe('"AGV ""01""; hall",96.25,5400,1234.5,12');
    // A short duration keeps its value (to the millisecond, the facts' resolution).
    expect(lines[2]).toBe("'=SUM(A1),,3.21,0,0");
    expect(lines[3]).toBe('');
  });

  it('writes German CSV with semicolons and decimal commas', () => {
    const lines = toCsv(table, 'de').slice(1).split('\r\n');
    expect(lines[0]).toBe('Vehicle;Availability (%);Working (s);Distance km;Orders');
    expect(lines[1]).toBe('"AGV ""01""; hall";96,25;5400;1234,5;12');
  });

  it('writes percentages (charges, health) as they are, the header saying %', () => {
    const percent = { key: 'health', label: 'Health', format: 'percent' as const };
    expect(csvUnitSuffix(percent)).toBe(' (%)');
    expect(csvValue(98.25, percent, 'de')).toBe('98,25');
  });

  it('quotes only when needed (RFC 4180)', () => {
    expect(quoteCsvField('plain', ',')).toBe('plain');
    expect(quoteCsvField('a,b', ',')).toBe('"a,b"');
    expect(quoteCsvField('a,b', ';')).toBe('a,b');
    expect(quoteCsvField('two\nlines', ';')).toBe('"two\nlines"');
  });

  it('names the file after page, chart and period', () => {
    expect(
      csvFileName({
        page: 'productivityAnalysis',
        chart: 'timeInState',
        from: '2026-11-01',
        to: '2026-11-21',
      }),
    ).toBe('fleetscope_productivity-analysis_time-in-state_2026-11-01_2026-11-21.csv');
    expect(
      csvFileName({ page: 'dashboard', chart: 'x', from: '2026-11-21', to: '2026-11-21' }),
    ).toBe('fleetscope_dashboard_x_2026-11-21.csv');
  });
});

describe('formatValue', () => {
  it('formats per language and keeps null as no data', () => {
    expect(formatValue({ value: 0.9625, format: 'share', language: 'de' })).toBe('96,3\u00a0%');
    expect(formatValue({ value: 0.9625, format: 'share', language: 'en' })).toBe('96.3%');
    expect(formatValue({ value: 1234.5, format: 'decimal', language: 'de' })).toBe('1.234,5');
    expect(formatValue({ value: 7500, format: 'duration', language: 'en' })).toBe('2 h 05 min');
    // A cycle time in a chart's table reads as in its tooltip, not rounded to the minute.
    expect(formatValue({ value: 150, format: 'duration', language: 'de' })).toBe('2 min 30 s');
    expect(formatValue({ value: '2026-11-21', format: 'date', language: 'de' })).toBe('21.11.2026');
    expect(formatValue({ value: null, format: 'share', language: 'en' })).toBe('–');
    // A percentage as the API gives charges and health (0..100), written like a share.
    expect(formatValue({ value: 60.6, format: 'percent', language: 'de' })).toBe('60,6\u00a0%');
    expect(formatValue({ value: 98, format: 'percent', language: 'en' })).toBe('98.0%');
  });
});

describe('trendOf', () => {
  it('colours by whether up is good', () => {
    expect(trendOf({ value: 0.9, previous: 0.8, higherIsBetter: true })).toEqual({
      direction: 'up',
      delta: expect.closeTo(0.1, 10),
      good: true,
    });
    expect(trendOf({ value: 12, previous: 10, higherIsBetter: false })?.good).toBe(false);
    expect(trendOf({ value: 8, previous: 10, higherIsBetter: false })).toMatchObject({
      direction: 'down',
      good: true,
    });
  });

  it('treats tiny changes as flat and missing values as no comparison', () => {
    expect(trendOf({ value: 100.2, previous: 100, higherIsBetter: true })).toEqual({
      direction: 'flat',
      delta: expect.closeTo(0.2, 10),
      good: null,
    });
    expect(trendOf({ value: 0, previous: 0, higherIsBetter: true })?.direction).toBe('flat');
    expect(trendOf({ value: null, previous: 3, higherIsBetter: true })).toBeNull();
    expect(trendOf({ value: 3, previous: null, higherIsBetter: true })).toBeNull();
  });
});

describe('states and reasons', () => {
  it('says why a chart is empty', () => {
    expect(emptyReasonFor({ vehicleCount: 0, shift: 'all', shiftRuns: true })).toBe('noVehicles');
    expect(emptyReasonFor({ vehicleCount: 3, shift: 'all', shiftRuns: false })).toBe(
      'noDataInPeriod',
    );
    // A shift that runs in the period: it is the period that has no data (a future day).
    expect(emptyReasonFor({ vehicleCount: 3, shift: 'night', shiftRuns: true })).toBe(
      'noDataInPeriod',
    );
    expect(emptyReasonFor({ vehicleCount: 3, shift: 'night', shiftRuns: false })).toBe(
      'shiftExcludes',
    );
  });

  it('knows whether a shift starts on a day of the period at a selected site', () => {
    const weekdaysOnly = {
      shifts: [
        { id: 'early', name: 'Early', start: '06:00', end: '14:00', weekdays: [0, 1, 2, 3, 4] },
      ],
    };
    const sites = [weekdaysOnly];
    // 2026-11-28 is a Saturday, 2026-11-30 a Monday.
    expect(shiftRunsIn({ shift: 'early', sites, from: '2026-11-28', to: '2026-11-29' })).toBe(
      false,
    );
    expect(shiftRunsIn({ shift: 'early', sites, from: '2026-11-28', to: '2026-11-30' })).toBe(true);
    expect(shiftRunsIn({ shift: 'late', sites, from: '2026-11-30', to: '2026-11-30' })).toBe(false);
    // A year: every weekday, whatever its length.
    expect(shiftRunsIn({ shift: 'early', sites, from: '2026-01-01', to: '2026-12-31' })).toBe(true);
    expect(shiftRunsIn({ shift: 'early', sites: [], from: '2026-11-30', to: '2026-11-30' })).toBe(
      false,
    );
  });

  it('maps a load to a card status, error first', () => {
    const base = {
      isPending: false,
      error: null,
      isEmpty: false,
      emptyReason: 'noDataInPeriod' as const,
    };
    expect(chartStatus(base)).toEqual({ kind: 'ready' });
    expect(chartStatus({ ...base, isPending: true })).toEqual({ kind: 'loading' });
    expect(chartStatus({ ...base, isEmpty: true })).toEqual({
      kind: 'empty',
      reason: 'noDataInPeriod',
    });
    // The server's words are shown; a transport failure or a bug gets the card's own text in
    // the user's language (no English "HTTP 502" or "boom" in a German page).
    const refused = new ApiFailure('shift: unknown shift', 422, null, 'shift: unknown shift');
    expect(chartStatus({ ...base, error: refused })).toMatchObject({
      kind: 'error',
      message: 'shift: unknown shift',
    });
    for (const error of [new ApiFailure('HTTP 502', 502, null), new Error('boom')]) {
      expect(chartStatus({ ...base, error })).toEqual({ kind: 'error', message: undefined });
    }
  });

  it('draws a sparkline over the range of its values, with gaps for missing buckets', () => {
    // Five buckets over 200 units: x = 0, 50, 100, 150, 200. Values 10..20 fill the height
    // 48 less an inset of 3 at each end: 20 at y 3, 10 at y 45, 15 at y 24.
    const geometry = sparklineGeometry([10, 20, null, 15, 10], { width: 200, height: 48 });
    expect(geometry.xs).toEqual([0, 50, 100, 150, 200]);
    expect(geometry.line).toBe('M0 45L50 3M150 24L200 45');
    expect(geometry.area).toBe('M0 48L0 45L50 3L50 48ZM150 48L150 24L200 45L200 48Z');
  });

  it('draws a lone value as a dot and a constant series as a flat line', () => {
    const lone = sparklineGeometry([null, 7, null], { width: 100, height: 40 });
    expect(lone.line).toBe('M50 20L50 20');
    expect(lone.area).toBe('');
    expect(sparklineGeometry([5, 5], { width: 100, height: 40 }).line).toBe('M0 20L100 20');
  });

  it('draws a running bucket apart: a dashed segment into a dot, outside the settled line', () => {
    // x = 0, 50, 100, 150, 200; 10..20 over 48 - 2 * 3: 10 at y 45, 20 at y 3, 15 at y 24.
    const geometry = sparklineGeometry([10, 20, 15, 20, 10], {
      width: 200,
      height: 48,
      partial: [false, false, false, false, true],
    });
    expect(geometry.line).toBe('M0 45L50 3L100 24L150 3');
    expect(geometry.area).toBe('M0 48L0 45L50 3L100 24L150 3L150 48Z');
    expect(geometry.partialLine).toBe('M150 3L200 45');
    expect(geometry.partialDots).toBe('M200 45L200 45');
    // Without a value the running bucket draws nothing; without one it is all settled.
    const empty = sparklineGeometry([10, 20, null], {
      width: 100,
      height: 48,
      partial: [false, false, true],
    });
    expect([empty.partialLine, empty.partialDots]).toEqual(['', '']);
    const settled = sparklineGeometry([10, 20], { width: 100, height: 48 });
    expect([settled.line, settled.partialLine]).toEqual(['M0 45L100 3', '']);
  });

  it('finds the bucket nearest to the pointer', () => {
    expect([0, 0.12, 0.13, 0.5, 0.99, 1.4, -1].map((ratio) => nearestBucket(ratio, 5))).toEqual([
      0, 0, 1, 2, 4, 4, 0,
    ]);
  });
});

describe('KPI formatting', () => {
  it('formats values by unit and language', async () => {
    const { formatKpiValue, formatKpiDelta } = await import('./kpiFormat');
    const noData = 'no data';
    expect(formatKpiValue({ value: 0.962, unit: 'share', language: 'de', noData })).toBe(
      '96,2\u00a0%',
    );
    expect(formatKpiValue({ value: 3.44, unit: 'perHour', language: 'de', noData })).toBe('3,4 /h');
    expect(formatKpiValue({ value: 1234, unit: 'count', language: 'de', noData })).toBe('1.234');
    expect(formatKpiValue({ value: 4000, unit: 'seconds', language: 'en', noData })).toBe(
      '1 h 07 min',
    );
    expect(formatKpiValue({ value: null, unit: 'km', language: 'en', noData })).toBe('no data');
    expect(
      formatKpiDelta({ delta: 0.012, unit: 'share', language: 'de', pointsLabel: 'Pp.' }),
    ).toBe('+1,2 Pp.');
    expect(formatKpiDelta({ delta: -3, unit: 'count', language: 'en', pointsLabel: 'pp' })).toBe(
      '\u22123',
    );
  });

  it('keeps a neutral KPI neutral', () => {
    expect(trendOf({ value: 5, previous: 3, higherIsBetter: null })).toMatchObject({
      direction: 'up',
      good: null,
    });
  });
});

describe('barCartesian', () => {
  it('is the cartesian frame whose tooltip shades the category and formats its values', () => {
    const theme = chartTheme('light');
    const format = (value: unknown) => `${String(value)} h`;
    const bars = barCartesian(theme, format);
    expect(bars.grid).toEqual(baseCartesian(theme).grid);
    expect(bars.tooltip).toEqual({
      ...baseCartesian(theme).tooltip,
      axisPointer: { type: 'shadow' },
      valueFormatter: format,
    });
    // Without a formatter each series formats its own values.
    expect('valueFormatter' in barCartesian(theme).tooltip).toBe(false);
  });
});
