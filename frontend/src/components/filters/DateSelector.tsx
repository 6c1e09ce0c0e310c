import {
  ActionIcon,
  Button,
  Group,
  Loader,
  Menu,
  Popover,
  SegmentedControl,
  Tooltip,
} from '@mantine/core';
import {
  IconCalendar,
  IconCheck,
  IconChevronLeft,
  IconChevronRight,
  IconClockHour4,
} from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATE_MODES, type DateMode } from '../../api/types';
import {
  canMoveForward,
  focusDay,
  moveFocus,
  rangeForModeChange,
  shiftRange,
  todayIso,
} from '../../lib/dateRange';
import { formatPeriod } from '../../lib/format';
import { RELATIVE_RANGES } from '../../lib/relativeRange';
import { useAnalysisFilterControls } from './filtersContext';

// @mantine/dates is loaded only when a calendar is opened.
const DatePickerPanel = lazy(() => import('./DatePickerPanel'));

/** Date selector of the page header: mode, previous/next period and a calendar. */
export function DateSelector() {
  const { t, i18n } = useTranslation();
  const { mode, from, to, relativeRange, focus, setDateFilter, setRelativeRange } =
    useAnalysisFilterControls();
  const [calendarOpened, setCalendarOpened] = useState(false);
  const range = { from, to };
  const today = todayIso();

  const changeMode = (value: string) => {
    const next = value as DateMode;
    const hint = { today, focus };
    setDateFilter({ mode: next, ...rangeForModeChange(next, range, hint) }, focusDay(range, hint));
  };
  const move = (direction: -1 | 1) =>
    setDateFilter(
      { mode, ...shiftRange(mode, range, direction) },
      moveFocus(mode, range, focusDay(range, { today, focus }), direction),
    );
  const period = formatPeriod({ mode, from, to }, i18n.language);

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
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Button
            variant={relativeRange ? 'light' : 'default'}
            size="sm"
            px="xs"
            leftSection={<IconClockHour4 size={16} />}
            data-testid="date-relative"
            data-range={relativeRange ?? ''}
          >
            {relativeRange ? t(`filters.relative.${relativeRange}`) : t('filters.relative.label')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown data-testid="date-relative-menu">
          <Menu.Label>{t('filters.relative.hint')}</Menu.Label>
          {RELATIVE_RANGES.map((name) => (
            <Menu.Item
              key={name}
              onClick={() => setRelativeRange(name)}
              leftSection={
                name === relativeRange ? <IconCheck size={14} /> : <span style={{ width: 14 }} />
              }
              data-testid={`date-relative-${name}`}
            >
              {t(`filters.relative.${name}`)}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
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
              data-relative={relativeRange ?? ''}
              // The name starts with the shown period (WCAG 2.5.3, label in name).
              aria-label={`${period}: ${mode === 'custom' ? t('filters.pickRange') : t('filters.pickDate')}`}
            >
              {period}
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
                  onPick={(picked, day) => {
                    setDateFilter({ mode, ...picked }, day);
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
