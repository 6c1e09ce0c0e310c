import {
  ActionIcon,
  Button,
  Group,
  Loader,
  Popover,
  SegmentedControl,
  Tooltip,
} from '@mantine/core';
import { IconCalendar, IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATE_MODES, type DateMode } from '../../api/types';
import { canMoveForward, rangeForModeChange, shiftRange, todayIso } from '../../lib/dateRange';
import { formatPeriod } from '../../lib/format';
import { useAnalysisFilterControls } from './filtersContext';

// @mantine/dates is loaded only when a calendar is opened.
const DatePickerPanel = lazy(() => import('./DatePickerPanel'));

/** Date selector of the page header: mode, previous/next period and a calendar. */
export function DateSelector() {
  const { t, i18n } = useTranslation();
  const { mode, from, to, setDateFilter } = useAnalysisFilterControls();
  const [calendarOpened, setCalendarOpened] = useState(false);
  const range = { from, to };
  const today = todayIso();

  const changeMode = (value: string) => {
    const next = value as DateMode;
    setDateFilter({ mode: next, ...rangeForModeChange(next, range) });
  };
  const move = (direction: -1 | 1) =>
    setDateFilter({ mode, ...shiftRange(mode, range, direction) });

  return (
    <Group gap="xs" wrap="wrap" data-testid="date-selector">
      <SegmentedControl
        size="xs"
        value={mode}
        onChange={changeMode}
        data={DATE_MODES.map((value) => ({ value, label: t(`filters.mode.${value}`) }))}
        data-testid="date-mode"
        aria-label={t('filters.period')}
      />
      <Group gap={4} wrap="nowrap">
        <Tooltip label={t('filters.previous')}>
          <ActionIcon
            variant="default"
            size="lg"
            onClick={() => move(-1)}
            aria-label={t('filters.previous')}
            data-testid="date-prev"
          >
            <IconChevronLeft size={16} />
          </ActionIcon>
        </Tooltip>
        <Popover
          opened={calendarOpened}
          onChange={setCalendarOpened}
          position="bottom-start"
          shadow="md"
          trapFocus
        >
          <Popover.Target>
            <Button
              variant="default"
              leftSection={<IconCalendar size={16} />}
              onClick={() => setCalendarOpened((opened) => !opened)}
              data-testid="date-picker"
              data-from={from}
              data-to={to}
              aria-label={mode === 'custom' ? t('filters.pickRange') : t('filters.pickDate')}
            >
              {formatPeriod({ mode, from, to }, i18n.language)}
            </Button>
          </Popover.Target>
          <Popover.Dropdown data-testid="date-picker-dropdown">
            <Suspense fallback={<Loader size="sm" />}>
              {calendarOpened && (
                <DatePickerPanel
                  mode={mode}
                  from={from}
                  to={to}
                  maxDate={today}
                  language={i18n.language}
                  onPick={(picked) => {
                    setDateFilter({ mode, ...picked });
                    setCalendarOpened(false);
                  }}
                />
              )}
            </Suspense>
          </Popover.Dropdown>
        </Popover>
        <Tooltip label={t('filters.next')}>
          <ActionIcon
            variant="default"
            size="lg"
            onClick={() => move(1)}
            disabled={!canMoveForward(range, today)}
            aria-label={t('filters.next')}
            data-testid="date-next"
          >
            <IconChevronRight size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Group>
  );
}
