import { formatDateTime, formatDecimal, formatNumber } from '../../lib/format';
import { formatFigure } from '../charts/kpiTexts';

/** Cell texts of the lists (null is "no data", never 0). */
export function cellText(
  value: number | string | null | undefined,
  kind: 'duration' | 'share' | 'integer' | 'decimal' | 'dateTime' | 'metres',
  language: string,
  /** The site's zone for `dateTime` (the browser's when not given). */
  timeZone?: string,
): string {
  if (value === null || value === undefined || value === '') {
    return '–';
  }
  if (typeof value === 'string') {
    return kind === 'dateTime' ? formatDateTime(value, language, timeZone) : value;
  }
  return kind === 'metres'
    ? `${formatDecimal(value, language)} m`
    : formatFigure(kind === 'dateTime' ? 'decimal' : kind, value, language);
}

/** "+12" / "−3" / "±0" for a change against the previous period. */
export function signedCount(delta: number, language: string): string {
  if (delta === 0) {
    return '±0';
  }
  return `${delta > 0 ? '+' : '−'}${formatNumber(Math.abs(delta), language)}`;
}
