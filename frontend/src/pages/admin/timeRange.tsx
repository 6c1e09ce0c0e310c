import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A local "YYYY-MM-DDTHH:MM" of a datetime input as an ISO instant, or undefined. */
export function localInputToIso(value: string): string | undefined {
  if (!value) {
    return undefined;
  }
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The "from" and "to" instants of a list's time filter (local date and time inputs). */
export function TimeRangeInputs({
  from,
  to,
  onChange,
}: {
  from: string;
  to: string;
  onChange: (range: { from?: string; to?: string }) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput
        type="datetime-local"
        label={t('admin.common.from')}
        value={from}
        onChange={(event) => onChange({ from: event.currentTarget.value })}
        w={220}
      />
      <TextInput
        type="datetime-local"
        label={t('admin.common.to')}
        value={to}
        onChange={(event) => onChange({ to: event.currentTarget.value })}
        w={220}
      />
    </>
  );
}
