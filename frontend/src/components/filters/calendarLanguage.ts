import 'dayjs/locale/de';
import 'dayjs/locale/en-gb';
import type { CalendarAriaLabels } from '@mantine/dates';
import type { TFunction } from 'i18next';

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
