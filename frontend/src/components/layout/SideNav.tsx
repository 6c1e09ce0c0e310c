import { Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Role } from '../../api/types';
import {
  type AppId,
  desktopEntries,
  type MenuCallbackAction,
  type MenuEntry,
} from '../../app/menu';
import { SIDE_NAV_WIDTH } from '../../constants';
import { AppSwitcher } from './AppSwitcher';
import { MENU_ICONS } from './menuIcons';
import { NavFlyout } from './NavFlyout';

interface SideNavProps {
  menu: MenuEntry[];
  role: Role;
  app: AppId;
  pathname: string;
  search: string;
  onCallback: (action: MenuCallbackAction) => void;
}

/** Desktop side navigation, 4.25rem wide (spec section 9), dark. */
export function SideNav({ menu, role, app, pathname, search, onCallback }: SideNavProps) {
  const { t } = useTranslation();
  return (
    <nav
      className="fs-sidenav"
      style={{ width: SIDE_NAV_WIDTH }}
      aria-label={t('menu.menu')}
      data-testid="nav-side"
    >
      <AppSwitcher role={role} current={app} />
      <div className="fs-sidenav-group" style={{ marginTop: '0.75rem' }}>
        {desktopEntries(menu, 'top').map((entry) => (
          <NavFlyout key={entry.id} entry={entry} pathname={pathname} search={search} />
        ))}
      </div>
      <div className="fs-sidenav-spacer" />
      <div className="fs-sidenav-group">
        {desktopEntries(menu, 'bottom').map((entry) => {
          const Icon = MENU_ICONS[entry.icon];
          return (
            <Tooltip key={entry.id} label={entry.name} position="right" withArrow>
              <button
                type="button"
                className="fs-nav-button"
                aria-label={entry.name}
                data-testid={`menu-entry-${entry.id}`}
                onClick={() => entry.callbackAction && onCallback(entry.callbackAction)}
              >
                <Icon size={24} stroke={1.6} />
              </button>
            </Tooltip>
          );
        })}
      </div>
    </nav>
  );
}
