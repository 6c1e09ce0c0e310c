import { formatDateTime, formatDecimal, formatNumber, formatShare } from '../../lib/format';
import { formatPreciseDuration } from '../charts/chartParts';

/** Cell texts of the lists (null is "no data", never 0). */
export function cellText(
  value: number | string | null | undefined,
  kind: 'duration' | 'share' | 'integer' | 'decimal' | 'dateTime' | 'metres',
  language: string,
): string {
  if (value === null || value === undefined || value === '') {
    return '–';
  }
  if (typeof value === 'string') {
    return kind === 'dateTime' ? formatDateTime(value, language) : value;
  }
  switch (kind) {
    case 'duration':
      return formatPreciseDuration(value, language);
    case 'share':
      return formatShare(value, language);
    case 'integer':
      return formatNumber(Math.round(value), language);
    case 'metres':
      return `${formatDecimal(value, language)} m`;
    default:
      return formatDecimal(value, language);
  }
}

/** "+12" / "−3" / "±0" for a change against the previous period. */
export function signedCount(delta: number, language: string): string {
  if (delta === 0) {
    return '±0';
  }
  return `${delta > 0 ? '+' : '−'}${formatNumber(Math.abs(delta), language)}`;
}
