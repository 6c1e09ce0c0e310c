import '@mantine/dates/styles.css';
import { DatesProvider, DateTimePicker } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import {
  calendarAriaLabels,
  dayAriaLabel,
  pickerFormat,
} from '../../components/filters/calendarLanguage';

/**
 * A local date and time as the picker gives it ("YYYY-MM-DD HH:mm:ss", or
 * "YYYY-MM-DDTHH:mm") as an ISO instant, or undefined.
 */
export function localInputToIso(value: string): string | undefined {
  if (!value) {
    return undefined;
  }
  // With a "T" and without an offset, Date reads the text as local time.
  const date = new Date(value.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * The "from" and "to" instants of a list's time filter: pickers in the app's language (a
 * native date-time input follows the browser's locale instead).
 */
export function TimeRangeInputs({
  from,
  to,
  onChange,
}: {
  from: string;
  to: string;
  onChange: (range: { from?: string; to?: string }) => void;
}) {
  const { t, i18n } = useTranslation();
  const { locale, valueFormat } = pickerFormat(i18n.language);
  const ariaLabels = calendarAriaLabels(t);
  const picker = (label: string, value: string, key: 'from' | 'to') => (
    <DateTimePicker
      label={label}
      value={value || null}
      onChange={(picked) => onChange({ [key]: picked ?? '' })}
      valueFormat={valueFormat}
      placeholder={t('admin.common.dateTimePlaceholder')}
      clearable
      ariaLabels={ariaLabels}
      getDayAriaLabel={dayAriaLabel(i18n.language)}
      timePickerProps={{
        hoursInputLabel: t('filters.calendar.hours'),
        minutesInputLabel: t('filters.calendar.minutes'),
      }}
      submitButtonProps={{ 'aria-label': t('filters.calendar.apply') }}
      w={200}
      data-testid={`time-range-${key}`}
    />
  );
  return (
    <DatesProvider settings={{ locale, firstDayOfWeek: 1 }}>
      {picker(t('admin.common.from'), from, 'from')}
      {picker(t('admin.common.to'), to, 'to')}
    </DatesProvider>
  );
}
