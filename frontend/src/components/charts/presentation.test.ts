import { describe, expect, it } from 'vitest';
import { csvDateTime, formatDateTime } from '../../lib/format';
import { toCsv } from './csv';
import { changeDigits, formatKpiDelta, formatKpiValue, pointsUnit } from './kpiFormat';
import { kpiTexts } from './kpiTexts';
import { localizeOption } from './localize';
import { shownTrend } from './trend';
import type { TableData } from './types';
import { formatValue } from './values';

type Formatter = (value: unknown, upper?: unknown) => string;
type AnyOption = Record<string, unknown> & {
  xAxis: { axisLabel: { formatter?: Formatter } };
  yAxis: Array<{ axisLabel: { formatter?: Formatter } }>;
  visualMap: { formatter: Formatter };
  tooltip: { valueFormatter: Formatter };
};

describe('axis numbers in the user language', () => {
  const option = {
    xAxis: { type: 'category', data: ['a'] },
    yAxis: [{ type: 'value' }, { axisLabel: { formatter: (v: number) => `${v} h` } }],
    visualMap: { min: 0, max: 1500 },
    tooltip: { trigger: 'axis' },
  };

  it('writes German value axes, colour scales and tooltips with 1.000, English with 1,000', () => {
    const german = localizeOption(option, 'de') as AnyOption;
    expect(german.yAxis[0]?.axisLabel.formatter?.(1000)).toBe('1.000');
    expect(german.yAxis[0]?.axisLabel.formatter?.(2.5)).toBe('2,5');
    expect(german.visualMap.formatter(1500)).toBe('1.500');
    expect(german.visualMap.formatter(1000, 2000)).toBe('1.000 – 2.000');
    expect(german.tooltip.valueFormatter(12345.6)).toBe('12.345,6');
    const english = localizeOption(option, 'en') as AnyOption;
    expect(english.yAxis[0]?.axisLabel.formatter?.(1000)).toBe('1,000');
  });

  it('leaves category axes and formatters a transform chose alone', () => {
    const german = localizeOption(option, 'de') as AnyOption;
    expect(german.xAxis.axisLabel).toBeUndefined();
    expect(german.yAxis[1]?.axisLabel.formatter?.(3)).toBe('3 h');
  });
});

describe('changes against the previous period', () => {
  it('writes changes of shares and percentages in pp (English) and Pp. (German)', () => {
    expect(pointsUnit('en')).toBe('pp');
    expect(pointsUnit('de')).toBe('Pp.');
    // Mean charge is a percentage: 60.2 % after 60.9 % is −0.7 percentage points.
    expect(formatKpiDelta({ delta: -0.7, unit: 'percent', language: 'en' })).toBe('−0.7 pp');
    expect(formatKpiDelta({ delta: -0.7, unit: 'percent', language: 'de' })).toBe('−0,7 Pp.');
    expect(formatKpiDelta({ delta: 0.012, unit: 'share', language: 'de' })).toBe('+1,2 Pp.');
    const tile = kpiTexts({
      value: 0.5,
      previous: 0.4,
      unit: 'share',
      higherIsBetter: true,
      language: 'de',
      noData: '–',
    });
    expect(tile.deltaText).toBe('+10,0 Pp.');
  });

  it('shows a small real change with the decimals it needs, never "±0.0"', () => {
    expect(changeDigits(0.7)).toBe(1);
    expect(changeDigits(0.04)).toBe(2);
    expect(changeDigits(0.004)).toBe(3);
    expect(formatKpiDelta({ delta: 0.0004, unit: 'share', language: 'en' })).toBe('+0.04 pp');
    expect(formatKpiDelta({ delta: -0.03, unit: 'perHour', language: 'de' })).toBe('−0,03 /h');
  });

  it('keeps the seconds of short durations, so a tile and its previous value differ', () => {
    expect(formatKpiValue({ value: 125, unit: 'seconds', language: 'de', noData: '–' })).toBe(
      '2 min 05 s',
    );
    expect(formatKpiDelta({ delta: -7, unit: 'seconds', language: 'en' })).toBe('−7 s');
  });

  it('calls a change within the tolerance flat (the tile says "unchanged" when both read 100)', () => {
    const tile = kpiTexts({
      value: 100.2,
      previous: 100,
      unit: 'integer',
      higherIsBetter: true,
      language: 'en',
      noData: '–',
    });
    expect(tile.trend).toEqual({ direction: 'flat', delta: expect.closeTo(0.2, 10), good: null });
    expect(shownTrend(tile.trend, tile.value, tile.previousText)).toEqual({
      trend: { direction: 'flat', delta: 0, good: null },
      unchanged: true,
    });
  });

  it('writes energy in kWh', () => {
    const tile = kpiTexts({
      value: 7248,
      previous: 5000,
      unit: 'kWh',
      higherIsBetter: false,
      language: 'de',
      noData: '–',
    });
    expect(tile.value).toBe('7,2 kWh');
    expect(tile.deltaText).toBe('+2,2 kWh');
    expect(tile.previousText).toBe('5,0 kWh');
  });
});

describe('dates and times', () => {
  const instant = '2026-03-01T14:05:09Z';

  it('prints four-digit years in tables', () => {
    expect(formatValue({ value: '2026-11-21', format: 'date', language: 'de' })).toBe('21.11.2026');
    expect(formatValue({ value: '2026-11-21', format: 'date', language: 'en' })).toBe('21/11/2026');
    expect(formatDateTime(instant, 'de', 'Europe/Berlin')).toBe('01.03.2026, 15:05:09');
    expect(formatDateTime(instant, 'en', 'Europe/Berlin')).toBe('01/03/2026, 15:05:09');
  });

  it('writes CSV times in the site zone, the same in both languages', () => {
    expect(csvDateTime(instant, 'Europe/Berlin')).toBe('2026-03-01 15:05:09');
    expect(csvDateTime('2026-07-01T23:30:00Z', 'Europe/Berlin')).toBe('2026-07-02 01:30:00');
  });
});

describe('CSV conventions (the same as the server error-history CSV)', () => {
  const table: TableData = {
    columns: [
      { key: 'start', label: 'Start', format: 'dateTime', timeZone: 'Europe/Berlin' },
      { key: 'x', label: 'x (m)', format: 'decimal' },
      { key: 'orders', label: 'Orders', format: 'integer' },
    ],
    rows: [{ start: '2026-11-24T13:03:12Z', x: 1234.5, orders: 1200 }],
  };

  it('German: ";" and the decimal comma, times in the site zone named in the header', () => {
    expect(toCsv(table, 'de')).toBe(
      '\uFEFFStart (Europe/Berlin);x (m);Orders\r\n2026-11-24 14:03:12;1234,5;1200\r\n',
    );
  });

  it('English: "," and the decimal point, the same times', () => {
    expect(toCsv(table, 'en')).toBe(
      '\uFEFFStart (Europe/Berlin),x (m),Orders\r\n2026-11-24 14:03:12,1234.5,1200\r\n',
    );
  });
});
