/** Numbers and dates formatted with Intl in the user's language. */
const LOCALES: Record<string, string> = { en: 'en-GB', de: 'de-DE' };

export function localeFor(language: string): string {
  return LOCALES[language.slice(0, 2)] ?? 'en-GB';
}

export function formatNumber(
  value: number,
  language: string,
  options?: Intl.NumberFormatOptions,
): string {
  return new Intl.NumberFormat(localeFor(language), options).format(value);
}

/** Monday-first weekday names in the user's language (`long`: "Monday", else "Mon"). */
export function weekdayNames(language: string, width: 'short' | 'long' = 'short'): string[] {
  const format = new Intl.DateTimeFormat(localeFor(language), { weekday: width, timeZone: 'UTC' });
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, day) => format.format(new Date(Date.UTC(2024, 0, 1 + day))));
}

/** An ISO date (YYYY-MM-DD) as a calendar date; never shifted by the browser's time zone. */
export function formatIsoDate(
  iso: string,
  language: string,
  options?: Intl.DateTimeFormatOptions,
): string {
  const date = new Date(`${iso}T00:00:00Z`);
  return new Intl.DateTimeFormat(localeFor(language), {
    dateStyle: 'medium',
    timeZone: 'UTC',
    ...options,
  }).format(date);
}

/** The label of a date-selector period in the user's language. */
export function formatPeriod(
  {
    mode,
    from,
    to,
  }: { mode: 'day' | 'week' | 'month' | 'year' | 'custom'; from: string; to: string },
  language: string,
): string {
  const locale = localeFor(language);
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(`${to}T00:00:00Z`);
  switch (mode) {
    case 'day':
      return new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(start);
    case 'month':
      return new Intl.DateTimeFormat(locale, {
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(start);
    case 'year':
      return String(start.getUTCFullYear());
    case 'week':
    case 'custom':
      return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).formatRange(
        start,
        end,
      );
  }
}

/**
 * A fraction 0..1 as a percentage as the language writes it ("96.2%" / "96,2 %", a no-break
 * space); `digits` decimals, or up to `digits` from `minimumDigits` on. Null stays null.
 */
export function formatShare(
  share: number,
  language: string,
  { digits = 1, minimumDigits = digits }: { digits?: number; minimumDigits?: number } = {},
): string {
  return new Intl.NumberFormat(localeFor(language), {
    style: 'percent',
    minimumFractionDigits: minimumDigits,
    maximumFractionDigits: digits,
  }).format(share);
}

/** A percentage 0..100 (a charge, a depth of discharge), written as `formatShare` does. */
export function formatPercent(
  percent: number,
  language: string,
  options?: { digits?: number; minimumDigits?: number },
): string {
  return formatShare(percent / 100, language, options);
}

/** A number with a fixed count of decimals, grouped in the user's language. */
export function formatDecimal(value: number, language: string, digits = 1): string {
  return new Intl.NumberFormat(localeFor(language), {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}

/**
 * A duration in seconds, readable at a glance: "2 h 05 min", "12 min", "45 s", and days for
 * long spans ("3 d 4 h"). The unit symbols are the same in English and German.
 */
export function formatDuration(seconds: number, language: string): string {
  const sign = seconds < 0 ? '-' : '';
  const total = Math.round(Math.abs(seconds));
  const number = (value: number) => formatNumber(value, language);
  if (total < 60) {
    return `${sign}${number(total)} s`;
  }
  const minutes = Math.round(total / 60);
  if (minutes < 60) {
    return `${sign}${number(minutes)} min`;
  }
  const hours = Math.floor(minutes / 60);
  if (hours < 48) {
    return `${sign}${number(hours)} h ${String(minutes % 60).padStart(2, '0')} min`;
  }
  return `${sign}${number(Math.floor(hours / 24))} d ${number(hours % 24)} h`;
}

/** A numeric date with a four-digit year ("24/11/2026", "24.11.2026"): never "24.11.26". */
export const NUMERIC_DATE: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
};

// One formatter per locale and zone: a chart's table formats up to 15,000 instants, and
// making a formatter costs far more than using one.
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A timestamp (ISO with zone, or epoch milliseconds as chart points carry them) as local date
 * (four-digit year) and time in the user's language; in `timeZone` (the site's) when given,
 * else the browser's.
 */
export function formatDateTime(at: string | number, language: string, timeZone?: string): string {
  const locale = localeFor(language);
  const key = `${locale}|${timeZone ?? ''}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      ...NUMERIC_DATE,
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZone,
    });
    dateTimeFormats.set(key, format);
  }
  return format.format(new Date(at));
}

const csvTimeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant for CSV files, the same in both languages and in the server's CSV:
 * "2026-11-24 14:03:12" in `timeZone` (the header names the zone).
 */
export function csvDateTime(at: string | number, timeZone: string): string {
  let format = csvTimeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      ...NUMERIC_DATE,
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZone,
    });
    csvTimeFormats.set(timeZone, format);
  }
  const part = (parts: Intl.DateTimeFormatPart[], type: string) =>
    parts.find((entry) => entry.type === type)?.value ?? '';
  const parts = format.formatToParts(new Date(at));
  const date = `${part(parts, 'year')}-${part(parts, 'month')}-${part(parts, 'day')}`;
  return `${date} ${part(parts, 'hour')}:${part(parts, 'minute')}:${part(parts, 'second')}`;
}

/** The browser's own time zone (where no site zone is known). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
