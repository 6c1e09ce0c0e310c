import { ActionIcon, Button, Group, Menu, Tooltip } from '@mantine/core';
import { IconCheck, IconClockPlay, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AUTO_REFRESH_MINUTES, type AutoRefreshMinutes } from '../../lib/autoRefresh';
import { localeFor } from '../../lib/format';
import { useRefresh } from './refreshContext';
import { ShareViewButton } from './ShareViewButton';

/** Header control: refresh now, and the auto-refresh interval (off, 1, 5, 15 min). */
export function RefreshControl() {
  const { t, i18n } = useTranslation();
  const { refresh, refreshing, refreshedAt, minutes, displayMode, setChosenMinutes } = useRefresh();
  const intervalLabel = (value: AutoRefreshMinutes) =>
    value === 0 ? t('refresh.off') : t('refresh.everyMinutes', { count: value });
  const refreshedLabel = refreshedAt
    ? t('refresh.refreshedAt', {
        time: new Intl.DateTimeFormat(localeFor(i18n.language), { timeStyle: 'short' }).format(
          refreshedAt,
        ),
      })
    : t('refresh.now');

  return (
    <Group gap={4} wrap="nowrap" data-testid="refresh-control">
      <ShareViewButton />
      <Tooltip label={refreshedLabel}>
        <ActionIcon
          variant="default"
          size="lg"
          onClick={() => void refresh()}
          loading={refreshing}
          aria-label={t('refresh.now')}
          data-testid="refresh-now"
          data-refreshed-at={refreshedAt?.toISOString() ?? ''}
        >
          <IconRefresh size={18} />
        </ActionIcon>
      </Tooltip>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button
            variant="default"
            size="sm"
            px="xs"
            leftSection={<IconClockPlay size={16} />}
            aria-label={`${t('refresh.auto')}: ${intervalLabel(minutes)}`}
            data-testid="auto-refresh"
            data-minutes={minutes}
          >
            {intervalLabel(minutes)}
          </Button>
        </Menu.Target>
        <Menu.Dropdown data-testid="auto-refresh-menu">
          <Menu.Label>
            {displayMode ? t('refresh.alwaysInDisplayMode') : t('refresh.auto')}
          </Menu.Label>
          {AUTO_REFRESH_MINUTES.map((value) => (
            <Menu.Item
              key={value}
              onClick={() => setChosenMinutes(value)}
              disabled={displayMode && value === 0}
              // The interval in effect (display mode refreshes though "off" is chosen).
              role="menuitemradio"
              aria-checked={value === minutes}
              leftSection={
                value === minutes ? <IconCheck size={14} /> : <span style={{ width: 14 }} />
              }
              data-testid={`auto-refresh-${value}`}
            >
              {intervalLabel(value)}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
