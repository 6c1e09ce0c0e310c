import {
  browserTimeZone,
  csvDateTime,
  formatDateTime,
  formatDecimal,
  formatIsoDate,
  formatNumber,
  formatPercent,
  formatShare,
  localeFor,
  NUMERIC_DATE,
} from '../../lib/format';
import { formatPreciseDuration } from './chartParts';
import type { TableCell, TableColumn, ValueFormat } from './types';

/** A value as shown in tables, tooltips and tiles; null is "no data" (never 0). */
export function formatValue({
  value,
  format,
  language,
  digits = 1,
  noData = '–',
  timeZone,
}: {
  value: TableCell;
  format: ValueFormat;
  language: string;
  digits?: number;
  noData?: string;
  timeZone?: string;
}): string {
  if (value === null || value === '') {
    return noData;
  }
  if (format === 'dateTime') {
    return formatDateTime(value, language, timeZone);
  }
  if (typeof value === 'string') {
    return format === 'date'
      ? formatIsoDate(value, language, { dateStyle: undefined, ...NUMERIC_DATE })
      : value;
  }
  switch (format) {
    case 'integer':
      return formatNumber(Math.round(value), language);
    case 'decimal':
      return formatDecimal(value, language, digits);
    case 'share':
      return formatShare(value, language, { digits });
    case 'percent':
      return formatPercent(value, language, { digits });
    case 'duration':
      // Below ten minutes to the second, as the tooltips and lists write cycle times.
      return formatPreciseDuration(value, language);
    default:
      return formatNumber(value, language);
  }
}

/**
 * Unit written after a column label in the CSV header, where the export converts; the zone
 * of the times ("Start (Europe/Berlin)"), as in the server's CSV.
 */
export function csvUnitSuffix(column: Pick<TableColumn, 'format' | 'timeZone'>): string {
  if (column.format === 'share' || column.format === 'percent') {
    return ' (%)';
  }
  if (column.format === 'duration') {
    return ' (s)';
  }
  if (column.format === 'dateTime') {
    return ` (${column.timeZone ?? browserTimeZone()})`;
  }
  return '';
}

/**
 * A value for CSV: plain numbers without grouping, in the unit of the header, with the
 * language's decimal separator (so German Excel reads 96,2 as a number).
 */
export function csvValue(value: TableCell, column: TableColumn, language: string): string {
  if (value === null) {
    return '';
  }
  if (column.format === 'dateTime') {
    return csvDateTime(value, column.timeZone ?? browserTimeZone());
  }
  if (typeof value === 'string') {
    return value;
  }
  const plain = (number: number, digits: number) =>
    new Intl.NumberFormat(localeFor(language), {
      useGrouping: false,
      maximumFractionDigits: digits,
    }).format(number);
  switch (column.format) {
    case 'share':
      return plain(value * 100, 2);
    case 'duration':
      // Seconds to the millisecond, the facts' resolution: a 3 s action is 3, not 0.001 h
      // (as the server's error-history CSV writes its durations).
      return plain(value, 3);
    case 'integer':
      return plain(Math.round(value), 0);
    default:
      return plain(value, 4);
  }
}
