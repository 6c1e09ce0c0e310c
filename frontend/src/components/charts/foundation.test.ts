import { describe, expect, it } from 'vitest';
import { csvFileName, quoteCsvField, toCsv } from './csv';
import { emptyReasonFor } from './emptyReason';
import { sparklineOption } from './sparkline';
import { chartStatus } from './status';
import { chartTheme } from './theme';
import { trendOf } from './trend';
import type { TableData } from './types';
import { formatValue } from './values';

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
    { name: '=SUM(A1)', availability: null, working: 0, distance: 0, orders: 0 },
  ],
};

describe('CSV export', () => {
  it('writes English CSV with commas, BOM, CRLF and converted units', () => {
    const csv = toCsv(table, 'en');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[0]).toBe('Vehicle,Availability (%),Working (h),Distance km,Orders');
    expect(lines[1]).toBe('"AGV ""01""; hall",96.25,1.5,1234.5,12');
    expect(lines[2]).toBe("'=SUM(A1),,0,0,0");
    expect(lines[3]).toBe('');
  });

  it('writes German CSV with semicolons and decimal commas', () => {
    const lines = toCsv(table, 'de').slice(1).split('\r\n');
    expect(lines[0]).toBe('Vehicle;Availability (%);Working (h);Distance km;Orders');
    expect(lines[1]).toBe('"AGV ""01""; hall";96,25;1,5;1234,5;12');
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
    expect(formatValue({ value: '2026-11-21', format: 'date', language: 'de' })).toBe('21.11.26');
    expect(formatValue({ value: null, format: 'share', language: 'en' })).toBe('–');
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
    expect(trendOf({ value: 100.2, previous: 100, higherIsBetter: true })?.direction).toBe('flat');
    expect(trendOf({ value: 0, previous: 0, higherIsBetter: true })?.direction).toBe('flat');
    expect(trendOf({ value: null, previous: 3, higherIsBetter: true })).toBeNull();
    expect(trendOf({ value: 3, previous: null, higherIsBetter: true })).toBeNull();
  });
});

describe('states and reasons', () => {
  it('says why a chart is empty', () => {
    expect(emptyReasonFor({ vehicleCount: 0, shift: 'all' })).toBe('noVehicles');
    expect(emptyReasonFor({ vehicleCount: 3, shift: 'all' })).toBe('noDataInPeriod');
    expect(emptyReasonFor({ vehicleCount: 3, shift: 'night' })).toBe('shiftExcludes');
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
    expect(chartStatus({ ...base, error: new Error('boom') })).toMatchObject({
      kind: 'error',
      message: 'boom',
    });
  });

  it('draws a sparkline with gaps for missing buckets', () => {
    const option = sparklineOption({
      labels: ['a', 'b', 'c'],
      values: [1, null, 3],
      color: '#000',
      theme: chartTheme('light'),
      formatValue: String,
    }) as { series: Array<{ data: unknown[]; connectNulls: boolean }> };
    expect(option.series[0]?.data).toEqual([1, null, 3]);
    expect(option.series[0]?.connectNulls).toBe(false);
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
