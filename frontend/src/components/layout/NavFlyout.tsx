import { Group, Popover, Stack, Text, Tooltip } from '@mantine/core';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { isEntryActive, type MenuEntry } from '../../app/menu';
import { BetaBadge } from './BetaBadge';
import { MENU_ICONS } from './menuIcons';

const CLOSE_DELAY_MS = 180;

/**
 * An area icon of the side navigation. With sub-pages it opens a flyout on hover and on
 * click (touch screens, keyboard); without, it links to its page directly.
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
  const [opened, setOpened] = useState(false);
  // A click pins the flyout open; hovering alone opens it until the pointer leaves.
  const pinned = useRef(false);
  const closeTimer = useRef<number | null>(null);
  const Icon = MENU_ICONS[entry.icon];
  const active = isEntryActive(entry, pathname);
  const submenus = entry.submenus ?? [];

  const cancelClose = () => {
    if (closeTimer.current !== null) {
      window.clearTimeout(closeTimer.current);
      closeTimer.current = null;
    }
  };
  const open = () => {
    cancelClose();
    setOpened(true);
  };
  const close = () => {
    cancelClose();
    pinned.current = false;
    setOpened(false);
  };
  const scheduleClose = () => {
    cancelClose();
    if (!pinned.current) {
      closeTimer.current = window.setTimeout(() => setOpened(false), CLOSE_DELAY_MS);
    }
  };
  const toggleByClick = () => {
    if (opened && pinned.current) {
      close();
    } else {
      pinned.current = true;
      open();
    }
  };

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
    <Popover
      opened={opened}
      onChange={(next) => (next ? open() : close())}
      position="right-start"
      offset={14}
      shadow="md"
      width={240}
    >
      <Popover.Target>
        <button
          type="button"
          className="fs-nav-button"
          data-active={active}
          aria-label={entry.name}
          aria-haspopup="menu"
          aria-expanded={opened}
          data-testid={`menu-entry-${entry.id}`}
          onClick={toggleByClick}
          onMouseEnter={open}
          onMouseLeave={scheduleClose}
        >
          <Icon size={24} stroke={1.6} />
        </button>
      </Popover.Target>
      <Popover.Dropdown
        data-testid={`menu-flyout-${entry.id}`}
        onMouseEnter={cancelClose}
        onMouseLeave={scheduleClose}
        p="xs"
      >
        <Text size="xs" tt="uppercase" c="dimmed" fw={700} px="sm" pb={6}>
          {entry.name}
        </Text>
        <Stack gap={2} role="menu">
          {submenus.map((sub) => (
            <Link
              key={sub.id}
              role="menuitem"
              to={`${sub.url ?? '/'}${search}`}
              className="fs-flyout-link"
              data-active={isEntryActive(sub, pathname)}
              data-testid={`menu-entry-${sub.id}`}
              onClick={close}
            >
              <Group gap="xs" justify="space-between" w="100%" wrap="nowrap">
                <span>{sub.name}</span>
                {sub.beta && <BetaBadge testId={`menu-beta-${sub.id}`} />}
              </Group>
            </Link>
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
