import { Group, Popover, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChartDots3, IconCheck, IconSettings } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Role } from '../../api/types';
import { ADMIN_BASE_PATH, type AppId } from '../../app/menu';
import logoUrl from '../../assets/logo.svg';

/** The apps a role may switch between: Administration is the superuser's only. */
export function appsFor(role: Role): AppId[] {
  return role === 'superuser' ? ['analytics', 'administration'] : ['analytics'];
}

/** Where switching to an app lands. */
const APP_HOME: Record<AppId, string> = {
  analytics: '/dashboards',
  administration: `${ADMIN_BASE_PATH}/organizations`,
};

export function AppList({
  role,
  current,
  onSwitched,
}: {
  role: Role;
  current: AppId;
  onSwitched?: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack gap={4}>
      {appsFor(role).map((app) => {
        const active = app === current;
        const Icon = app === 'analytics' ? IconChartDots3 : IconSettings;
        return (
          <UnstyledButton
            key={app}
            data-testid={`app-${app}`}
            data-active={active}
            aria-current={active ? 'page' : undefined}
            className="fs-flyout-link"
            onClick={() => {
              onSwitched?.();
              if (!active) {
                void navigate(APP_HOME[app]);
              }
            }}
          >
            <Group gap="sm" wrap="nowrap">
              <Icon size={22} stroke={1.6} style={{ flex: 'none' }} />
              <div>
                <Text size="sm" fw={600}>
                  {t(`app.${app}`)}
                </Text>
                <Text size="xs" c="dimmed">
                  {t(`app.${app}Description`)}
                </Text>
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
export function AppSwitcher({ role, current }: { role: Role; current: AppId }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="right-start"
      offset={12}
      shadow="md"
      width={300}
      withArrow
    >
      <Popover.Target>
        <button
          type="button"
          className="fs-nav-button"
          aria-label={t('app.switchApp')}
          data-testid="app-switcher"
          data-app={current}
          onClick={() => setOpened((value) => !value)}
        >
          <img src={logoUrl} alt="" className="fs-logo" />
        </button>
      </Popover.Target>
      <Popover.Dropdown data-testid="app-switcher-dropdown">
        <Text size="xs" tt="uppercase" c="dimmed" fw={700} mb="xs">
          {t('app.switchApp')}
        </Text>
        <AppList role={role} current={current} onSwitched={() => setOpened(false)} />
      </Popover.Dropdown>
    </Popover>
  );
}
