import {
  formatDecimal,
  formatDuration,
  formatIsoDate,
  formatNumber,
  formatShare,
  localeFor,
} from '../../lib/format';
import type { TableCell, TableColumn, ValueFormat } from './types';

/** A value as shown in tables, tooltips and tiles; null is "no data" (never 0). */
export function formatValue({
  value,
  format,
  language,
  digits = 1,
  noData = '–',
}: {
  value: TableCell;
  format: ValueFormat;
  language: string;
  digits?: number;
  noData?: string;
}): string {
  if (value === null || value === '') {
    return noData;
  }
  if (typeof value === 'string') {
    return format === 'date' ? formatIsoDate(value, language, { dateStyle: 'short' }) : value;
  }
  switch (format) {
    case 'integer':
      return formatNumber(Math.round(value), language);
    case 'decimal':
      return formatDecimal(value, language, digits);
    case 'share':
      return formatShare(value, language, { digits });
    case 'duration':
      return formatDuration(value, language);
    default:
      return formatNumber(value, language);
  }
}

/** Unit written after a column label in the CSV header, where the export converts. */
export function csvUnitSuffix(format: ValueFormat): string {
  if (format === 'share') {
    return ' (%)';
  }
  if (format === 'duration') {
    return ' (h)';
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
      return plain(value / 3600, 3);
    case 'integer':
      return plain(Math.round(value), 0);
    default:
      return plain(value, 4);
  }
}
