import 'dayjs/locale/de';
import 'dayjs/locale/en-gb';
import type { CalendarAriaLabels } from '@mantine/dates';
import type { TFunction } from 'i18next';
import { formatIsoDate } from '../../lib/format';

/**
 * The calendars' locale (month and weekday names, Monday first) and their text for a date
 * and time, per language of the app; importing this module loads both dayjs locales.
 */
export function pickerFormat(language: string): { locale: string; valueFormat: string } {
  return language.startsWith('de')
    ? { locale: 'de', valueFormat: 'DD.MM.YYYY HH:mm' }
    : { locale: 'en-gb', valueFormat: 'DD/MM/YYYY HH:mm' };
}

/** Names of a calendar's controls for screen readers, in the app's language (Mantine's
 * previous/next and level buttons carry only an icon or a date). */
export function calendarAriaLabels(t: TFunction): CalendarAriaLabels {
  return {
    previousMonth: t('filters.calendar.previousMonth'),
    nextMonth: t('filters.calendar.nextMonth'),
    previousYear: t('filters.calendar.previousYear'),
    nextYear: t('filters.calendar.nextYear'),
    previousDecade: t('filters.calendar.previousDecade'),
    nextDecade: t('filters.calendar.nextDecade'),
    monthLevelControl: t('filters.calendar.monthLevel'),
    yearLevelControl: t('filters.calendar.yearLevel'),
  };
}

/**
 * A calendar day's name for screen readers, as the app writes a date ("26. Oktober 2026",
 * "26 October 2026"): Mantine's own is dayjs's "D MMMM YYYY", which in German lacks the
 * day's full stop.
 */
export function dayAriaLabel(language: string): (date: string | Date) => string {
  return (date) => {
    const iso = typeof date === 'string' ? date.slice(0, 10) : localIso(date);
    return formatIsoDate(iso, language, { dateStyle: 'long' });
  };
}

function localIso(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${String(date.getDate()).padStart(2, '0')}`;
}
