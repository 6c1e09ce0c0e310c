import { Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChartDots3, IconCheck, IconSettings } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
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

/** Icon, name and description of one app, with a check mark on the current one. */
function AppLabel({ app, active }: { app: AppId; active: boolean }) {
  const { t } = useTranslation();
  const Icon = app === 'analytics' ? IconChartDots3 : IconSettings;
  return (
    <>
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
      {active && <IconCheck size={16} aria-label={t('app.active')} style={{ flex: 'none' }} />}
    </>
  );
}

/** The apps as plain buttons, for the mobile drawer (which is not a menu). */
export function AppList({
  role,
  current,
  onSwitched,
}: {
  role: Role;
  current: AppId;
  onSwitched?: () => void;
}) {
  const navigate = useNavigate();
  return (
    <Stack gap={4}>
      {appsFor(role).map((app) => {
        const active = app === current;
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
            <AppLabel app={app} active={active} />
          </UnstyledButton>
        );
      })}
    </Stack>
  );
}

/**
 * Desktop app switcher: the logo opens the list of apps as a Mantine menu, like the side
 * menu's flyouts, so the keyboard works the same way: Enter or Space opens it on its first
 * app, the arrow keys (and Home, End) move, Escape closes it and gives the focus back to
 * the logo.
 */
export function AppSwitcher({ role, current }: { role: Role; current: AppId }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  // Open only on the page it was opened on: going to another page (a link, back, a hash
  // typed into the address bar) closes it, without an effect watching the location. The
  // path, not the location's key: pages rewrite their query (replace) as their filters
  // load, which is no navigation, and a typed hash comes without a key of its own.
  const [openedOn, setOpenedOn] = useState<string | null>(null);
  const opened = openedOn === location.pathname;
  return (
    <Menu
      opened={opened}
      onChange={(open) => setOpenedOn(open ? location.pathname : null)}
      withInitialFocusPlaceholder={false}
      position="right-start"
      offset={12}
      shadow="md"
      width={300}
      withArrow
    >
      <Menu.Target>
        <button
          type="button"
          className="fs-nav-button"
          aria-label={t('app.switchApp')}
          data-testid="app-switcher"
          data-app={current}
        >
          <img src={logoUrl} alt="" className="fs-logo" />
        </button>
      </Menu.Target>
      <Menu.Dropdown data-testid="app-switcher-dropdown">
        <Menu.Label tt="uppercase" fw={700}>
          {t('app.switchApp')}
        </Menu.Label>
        {appsFor(role).map((app, index) => {
          const active = app === current;
          return (
            <Menu.Item
              key={app}
              data-testid={`app-${app}`}
              data-active={active}
              aria-current={active ? 'page' : undefined}
              className="fs-flyout-link"
              // The focus trap starts on the first app.
              data-autofocus={index === 0 || undefined}
              onClick={() => {
                if (!active) {
                  void navigate(APP_HOME[app]);
                }
              }}
            >
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <AppLabel app={app} active={active} />
              </Group>
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}
