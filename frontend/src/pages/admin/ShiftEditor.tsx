import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Chip,
  Group,
  Input,
  Paper,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconMoon, IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminShift } from '../../api/adminTypes';
import { localeFor } from '../../lib/format';
import { HINT_BELOW } from './common';
import {
  calendarValid,
  crossesMidnight,
  formatShiftTimes,
  formatWeekdays,
  nextShiftId,
  normalizeTime,
  shiftProblems,
  WEEKDAYS,
  weekdayName,
} from './shifts';

interface ShiftEditorProps {
  shifts: AdminShift[];
  saving: boolean;
  /** The server's refusal (an overlap names both shifts and the weekday). */
  serverError: string | null;
  onSave: (shifts: AdminShift[]) => void;
  onEdit: () => void;
}

/** Whether the server's message names this shift (then it is shown on that shift too). */
function namedIn(message: string | null, shift: AdminShift): boolean {
  const name = shift.name.trim();
  return Boolean(message && name && message.includes(name));
}

/** The shift calendar: named shifts with start, end and weekdays; may cross midnight. */
export function ShiftEditor({ shifts, saving, serverError, onSave, onEdit }: ShiftEditorProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const [draft, setDraft] = useState<AdminShift[]>(shifts);
  const savedKey = JSON.stringify(shifts);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the calendar's value
  useEffect(() => setDraft(shifts), [savedKey]);
  const dayName = (day: number) => weekdayName(day, locale);

  const update = (index: number, patch: Partial<AdminShift>) => {
    onEdit();
    setDraft((current) =>
      current.map((shift, position) => (position === index ? { ...shift, ...patch } : shift)),
    );
  };
  const changed = JSON.stringify(draft) !== JSON.stringify(shifts);

  return (
    <Stack gap="sm" data-testid="shift-editor">
      {draft.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('admin.shifts.none')}
        </Text>
      )}
      {draft.map((shift, index) => {
        const problems = shiftProblems(shift, draft);
        const problem = (field: keyof typeof problems) =>
          problems[field] ? t(`admin.shifts.problem.${problems[field]}`) : null;
        const overnight = crossesMidnight(shift);
        const serverNamed = namedIn(serverError, shift);
        return (
          <Paper
            key={shift.id}
            withBorder
            radius="md"
            p="sm"
            data-testid={`shift-${index}`}
            style={serverNamed ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
          >
            <Group align="flex-start" gap="sm" wrap="wrap">
              <TextInput
                label={t('admin.shifts.name')}
                value={shift.name}
                onChange={(event) => update(index, { name: event.currentTarget.value })}
                error={problem('name') ?? (serverNamed ? serverError : null)}
                w={180}
                data-testid="shift-name"
              />
              {/* Text fields for "HH:MM": a native time input follows the browser's locale
                  ("06:00 AM"), not the app's language. */}
              {(['start', 'end'] as const).map((field) => (
                <TextInput
                  key={field}
                  label={t(`admin.shifts.${field}`)}
                  value={shift[field]}
                  placeholder={t('admin.shifts.timePlaceholder')}
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={5}
                  onChange={(event) => update(index, { [field]: event.currentTarget.value })}
                  onBlur={() => {
                    const typed = normalizeTime(shift[field]);
                    if (typed !== shift[field]) {
                      update(index, { [field]: typed });
                    }
                  }}
                  error={problem(field)}
                  w={120}
                  data-testid={`shift-${field}`}
                />
              ))}
              <Input.Wrapper
                label={t('admin.shifts.weekdays')}
                description={t('admin.shifts.weekdaysHint')}
                inputWrapperOrder={HINT_BELOW}
                error={problem('weekdays')}
              >
                <Chip.Group
                  multiple
                  value={shift.weekdays.map(String)}
                  onChange={(values) =>
                    update(index, { weekdays: values.map(Number).sort((a, b) => a - b) })
                  }
                >
                  <Group gap={4} mt={4} data-testid="shift-weekdays">
                    {WEEKDAYS.map((day) => (
                      <Chip key={day} value={String(day)} size="xs">
                        {dayName(day)}
                      </Chip>
                    ))}
                  </Group>
                </Chip.Group>
              </Input.Wrapper>
              <Stack gap={4} mt={24}>
                <Text size="sm" data-testid="shift-summary">
                  {formatShiftTimes(shift)} ·{' '}
                  {formatWeekdays(shift.weekdays, dayName, t('admin.shifts.everyDay'))}
                </Text>
                {overnight && (
                  <Badge
                    variant="light"
                    color="indigo"
                    leftSection={<IconMoon size={12} />}
                    data-testid="shift-overnight"
                  >
                    {t('admin.shifts.crossesMidnight')}
                  </Badge>
                )}
              </Stack>
              <Tooltip label={t('admin.shifts.remove')}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={28}
                  aria-label={t('admin.shifts.removeNamed', { name: shift.name || index + 1 })}
                  onClick={() => {
                    onEdit();
                    setDraft((current) => current.filter((_, position) => position !== index));
                  }}
                  data-testid="shift-remove"
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          </Paper>
        );
      })}
      {serverError && (
        <Alert color="red" variant="light" data-testid="shifts-error">
          {serverError}
        </Alert>
      )}
      <Group justify="space-between">
        <Button
          variant="light"
          leftSection={<IconPlus size={16} />}
          onClick={() => {
            onEdit();
            setDraft((current) => [
              ...current,
              { id: nextShiftId(current), name: '', start: '', end: '', weekdays: [0, 1, 2, 3, 4] },
            ]);
          }}
          data-testid="shift-add"
        >
          {t('admin.shifts.add')}
        </Button>
        <Group gap="xs">
          <Button variant="default" disabled={!changed} onClick={() => setDraft(shifts)}>
            {t('admin.common.reset')}
          </Button>
          <Button
            onClick={() => onSave(draft)}
            loading={saving}
            disabled={!changed || !calendarValid(draft)}
            data-testid="shifts-save"
          >
            {t('admin.shifts.save')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
