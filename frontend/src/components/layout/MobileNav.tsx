import { Burger, Divider, Drawer, Group, NavLink, ScrollArea, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Role } from '../../api/types';
import { type AppId, isEntryActive, type MenuCallbackAction, type MenuEntry } from '../../app/menu';
import logoUrl from '../../assets/logo.svg';
import { AppList } from './AppSwitcher';
import { BetaBadge } from './BetaBadge';
import { MENU_ICONS } from './menuIcons';

interface MobileNavProps {
  entry: MenuEntry;
  role: Role;
  app: AppId;
  pathname: string;
  search: string;
  opened: boolean;
  onOpenedChange: (opened: boolean) => void;
  onCallback: (action: MenuCallbackAction) => void;
}

/** Mobile navigation: one menu entry (spec section 2) whose drawer holds all items. */
export function MobileNav({
  entry,
  role,
  app,
  pathname,
  search,
  opened,
  onOpenedChange,
  onCallback,
}: MobileNavProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const go = (url: string) => {
    onOpenedChange(false);
    void navigate(`${url}${search}`);
  };
  const run = (action: MenuCallbackAction) => {
    onOpenedChange(false);
    onCallback(action);
  };

  return (
    <>
      <header className="fs-mobile-bar" data-testid="nav-mobile">
        <Burger
          opened={opened}
          onClick={() => onOpenedChange(!opened)}
          color="white"
          size="sm"
          aria-label={opened ? t('menu.closeMenu') : t('menu.openMenu')}
          data-testid={`menu-entry-${entry.id}`}
        />
        <img src={logoUrl} alt="" width={28} height={28} />
        <Text fw={700} c="white">
          {t('app.name')} · {t(`app.${app}`)}
        </Text>
      </header>
      <Drawer
        opened={opened}
        onClose={() => onOpenedChange(false)}
        title={entry.name}
        size="xs"
        padding="md"
        scrollAreaComponent={ScrollArea.Autosize}
      >
        <div data-testid="mobile-menu-drawer">
          <AppList role={role} current={app} onSwitched={() => onOpenedChange(false)} />
          <Divider my="sm" />
          {(entry.submenus ?? []).map((item) => {
            const Icon = MENU_ICONS[item.icon];
            const icon = <Icon size={20} stroke={1.6} />;
            if (item.callback) {
              return (
                <NavLink
                  key={item.id}
                  label={item.name}
                  leftSection={icon}
                  data-testid={`mobile-menu-entry-${item.id}`}
                  onClick={() => item.callbackAction && run(item.callbackAction)}
                />
              );
            }
            const subs = item.submenus ?? [];
            if (subs.length === 0) {
              return (
                <NavLink
                  key={item.id}
                  label={item.name}
                  leftSection={icon}
                  active={isEntryActive(item, pathname)}
                  data-testid={`mobile-menu-entry-${item.id}`}
                  onClick={() => item.url && go(item.url)}
                />
              );
            }
            return (
              <NavLink
                key={item.id}
                label={item.name}
                leftSection={icon}
                defaultOpened={isEntryActive(item, pathname)}
                childrenOffset={28}
                data-testid={`mobile-menu-entry-${item.id}`}
              >
                {subs.map((sub) => (
                  <NavLink
                    key={sub.id}
                    label={
                      <Group gap="xs" wrap="nowrap">
                        <span>{sub.name}</span>
                        {sub.beta && <BetaBadge testId={`mobile-menu-beta-${sub.id}`} />}
                      </Group>
                    }
                    active={isEntryActive(sub, pathname)}
                    data-testid={`mobile-menu-entry-${sub.id}`}
                    onClick={() => sub.url && go(sub.url)}
                  />
                ))}
              </NavLink>
            );
          })}
        </div>
      </Drawer>
    </>
  );
}
