import { Menu, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { isEntryActive, type MenuEntry } from '../../app/menu';
import { BetaBadge } from './BetaBadge';
import { MENU_ICONS } from './menuIcons';

const CLOSE_DELAY_MS = 180;

/**
 * An area icon of the side navigation. With sub-pages it opens a flyout menu on hover and
 * on click (touch screens, keyboard); without, it links to its page directly.
 *
 * Keyboard use is Mantine's menu: Enter or Space opens the flyout and moves the focus to
 * its first page, the arrow keys (and Home, End) move between the pages, Escape closes it
 * and gives the focus back to the area icon. Hovering alone opens it without taking the
 * focus, so the pointer never pulls the focus away from where the user works.
 */
export function NavFlyout({
  entry,
  pathname,
  search,
}: {
  entry: MenuEntry;
  pathname: string;
  search: string;
}) {
  // Opened by a click (or Enter/Space): the flyout stays open and takes the focus.
  const [pinned, setPinned] = useState(false);
  const Icon = MENU_ICONS[entry.icon];
  const active = isEntryActive(entry, pathname);
  const submenus = entry.submenus ?? [];

  if (submenus.length === 0 && entry.url) {
    return (
      <Tooltip label={entry.name} position="right" withArrow>
        <Link
          to={`${entry.url}${search}`}
          className="fs-nav-button"
          data-active={active}
          aria-label={entry.name}
          data-testid={`menu-entry-${entry.id}`}
        >
          <Icon size={24} stroke={1.6} />
        </Link>
      </Tooltip>
    );
  }

  return (
    <Menu
      onClose={() => setPinned(false)}
      trigger="click-hover"
      closeDelay={CLOSE_DELAY_MS}
      trapFocus={pinned}
      withInitialFocusPlaceholder={false}
      position="right-start"
      offset={14}
      shadow="md"
      width={240}
    >
      <Menu.Target>
        <button
          type="button"
          className="fs-nav-button"
          data-active={active}
          aria-label={entry.name}
          data-testid={`menu-entry-${entry.id}`}
          onClick={() => setPinned(true)}
        >
          <Icon size={24} stroke={1.6} />
        </button>
      </Menu.Target>
      <Menu.Dropdown data-testid={`menu-flyout-${entry.id}`} p="xs">
        <Menu.Label tt="uppercase" fw={700}>
          {entry.name}
        </Menu.Label>
        {submenus.map((sub, index) => (
          <Menu.Item
            key={sub.id}
            component={Link}
            to={`${sub.url ?? '/'}${search}`}
            className="fs-flyout-link"
            data-active={isEntryActive(sub, pathname)}
            data-testid={`menu-entry-${sub.id}`}
            // The focus trap starts on the first page of the area.
            data-autofocus={index === 0 || undefined}
            rightSection={sub.beta ? <BetaBadge testId={`menu-beta-${sub.id}`} /> : undefined}
          >
            {sub.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
