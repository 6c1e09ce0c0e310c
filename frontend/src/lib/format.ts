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
