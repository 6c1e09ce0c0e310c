import '@mantine/dates/styles.css';
import { DatePicker, DatesProvider, MonthPicker, YearPicker } from '@mantine/dates';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DateMode } from '../../api/types';
import { MAX_PERIOD_DAYS } from '../../constants';
import { addDays, type DateRange, rangeFor } from '../../lib/dateRange';
import { calendarAriaLabels, dayAriaLabel, pickerFormat } from './calendarLanguage';

interface DatePickerPanelProps {
  mode: DateMode;
  from: string;
  to: string;
  maxDate: string;
  language: string;
  /** The range picked and the day that was clicked in it (the day to keep in view). */
  onPick: (range: DateRange, day?: string) => void;
}

function isoOf(value: unknown): string | null {
  if (typeof value === 'string' && value.length >= 10) {
    return value.slice(0, 10);
  }
  if (value instanceof Date) {
    return `${value.getFullYear()}-${String(value.getMonth() + 1).padStart(2, '0')}-${String(value.getDate()).padStart(2, '0')}`;
  }
  return null;
}

/** The calendars of the date selector (lazy module: @mantine/dates stays out of the entry). */
export default function DatePickerPanel({
  mode,
  from,
  to,
  maxDate,
  language,
  onPick,
}: DatePickerPanelProps) {
  const [range, setRange] = useState<[string | null, string | null]>([from, to]);
  // Once a range's first day is picked, its last lies at most MAX_PERIOD_DAYS away.
  const first = range[0] !== null && range[1] === null ? range[0] : null;
  const reach = MAX_PERIOD_DAYS - 1;
  const rangeMin = first ? addDays(first, -reach) : undefined;
  const farthest = first ? addDays(first, reach) : maxDate;
  const rangeMax = farthest < maxDate ? farthest : maxDate;
  const { locale } = pickerFormat(language);
  const { t } = useTranslation();
  const ariaLabels = calendarAriaLabels(t);
  const dayLabel = dayAriaLabel(language);
  const pickAnchor = (value: unknown) => {
    const iso = isoOf(value);
    if (iso) {
      onPick(rangeFor(mode, iso), iso);
    }
  };

  return (
    <DatesProvider settings={{ locale, firstDayOfWeek: 1 }}>
      <div data-testid={`date-calendar-${mode}`}>
        {mode === 'month' && (
          <MonthPicker
            value={from}
            maxDate={maxDate}
            onChange={pickAnchor}
            ariaLabels={ariaLabels}
          />
        )}
        {mode === 'year' && (
          <YearPicker
            value={from}
            maxDate={maxDate}
            onChange={pickAnchor}
            ariaLabels={ariaLabels}
          />
        )}
        {(mode === 'day' || mode === 'week') && (
          <DatePicker
            value={from}
            maxDate={maxDate}
            defaultDate={from}
            onChange={pickAnchor}
            ariaLabels={ariaLabels}
            getDayAriaLabel={dayLabel}
          />
        )}
        {mode === 'custom' && (
          <DatePicker
            type="range"
            allowSingleDateInRange
            value={range}
            minDate={rangeMin}
            maxDate={rangeMax}
            defaultDate={from}
            ariaLabels={ariaLabels}
            getDayAriaLabel={dayLabel}
            onChange={(value) => {
              const next: [string | null, string | null] = [isoOf(value[0]), isoOf(value[1])];
              setRange(next);
              if (next[0] && next[1]) {
                onPick({ from: next[0], to: next[1] });
              }
            }}
          />
        )}
      </div>
    </DatesProvider>
  );
}
