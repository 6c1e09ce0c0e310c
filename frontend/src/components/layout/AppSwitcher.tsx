import { Group, Popover, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChartDots3, IconCheck, IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Role } from '../../api/types';
import logoUrl from '../../assets/logo.svg';

/** The apps a role may switch between; Analytics is the active one here. */
export function appsFor(role: Role): Array<'analytics' | 'administration'> {
  return role === 'superuser' ? ['analytics', 'administration'] : ['analytics'];
}

export function AppList({ role }: { role: Role }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      {appsFor(role).map((app) => {
        const active = app === 'analytics';
        const Icon = active ? IconChartDots3 : IconSettings;
        return (
          <UnstyledButton
            key={app}
            data-testid={`app-${app}`}
            data-active={active}
            aria-current={active ? 'page' : undefined}
            disabled={!active}
            className="fs-flyout-link"
            style={active ? undefined : { cursor: 'not-allowed', opacity: 0.75 }}
          >
            <Group gap="sm" wrap="nowrap">
              <Icon size={22} stroke={1.6} style={{ flex: 'none' }} />
              <div>
                <Text size="sm" fw={600}>
                  {t(`app.${app}`)}
                </Text>
                <Text size="xs" c="dimmed">
                  {active ? t('app.analyticsDescription') : t('app.administrationDescription')}
                </Text>
                {!active && (
                  <Text size="xs" fw={600} c="orange.8" data-testid={`app-${app}-notice`}>
                    {t('app.comingLater')}
                  </Text>
                )}
              </div>
            </Group>
            {active && (
              <IconCheck size={16} aria-label={t('app.active')} style={{ flex: 'none' }} />
            )}
          </UnstyledButton>
        );
      })}
    </Stack>
  );
}

/** Desktop app switcher: the logo opens the list of apps. */
export function AppSwitcher({ role }: { role: Role }) {
  const { t } = useTranslation();
  return (
    <Popover position="right-start" offset={12} shadow="md" width={300} withArrow>
      <Popover.Target>
        <button
          type="button"
          className="fs-nav-button"
          aria-label={t('app.switchApp')}
          data-testid="app-switcher"
        >
          <img src={logoUrl} alt="" className="fs-logo" />
        </button>
      </Popover.Target>
      <Popover.Dropdown data-testid="app-switcher-dropdown">
        <Text size="xs" tt="uppercase" c="dimmed" fw={700} mb="xs">
          {t('app.switchApp')}
        </Text>
        <AppList role={role} />
      </Popover.Dropdown>
    </Popover>
  );
}
