import type { Role } from '../api/types';
import { ROLES } from '../api/types';

/** Icon names; the navigation maps them to icon components (keeps this module pure). */
export type MenuIcon =
  | 'dashboards'
  | 'productivity'
  | 'processes'
  | 'failures'
  | 'battery'
  | 'help'
  | 'logout'
  | 'menu'
  | 'page'
  | 'organizations'
  | 'sites'
  | 'vehicles'
  | 'users'
  | 'tokens'
  | 'deadLetters'
  | 'jobs'
  | 'audit';

/** The two apps of the app switcher; Administration is the superuser's (issue 25). */
export type AppId = 'analytics' | 'administration';

/** Where the Administration app lives in the route table. */
export const ADMIN_BASE_PATH = '/admin';

/** The app a router pathname belongs to. */
export function appForPath(pathname: string): AppId {
  return pathname === ADMIN_BASE_PATH || pathname.startsWith(`${ADMIN_BASE_PATH}/`)
    ? 'administration'
    : 'analytics';
}

/** The pages of the Administration app in menu order (id = route below /admin, icon). */
export const ADMIN_PAGES = [
  'organizations',
  'sites',
  'vehicles',
  'users',
  'tokens',
  'deadLetters',
  'jobs',
  'audit',
] as const satisfies readonly MenuIcon[];
export type AdminPageId = (typeof ADMIN_PAGES)[number];

/** The Administration page at a router pathname (a site's detail is the sites page), or null. */
export function adminPageForPath(pathname: string): AdminPageId | null {
  const [base, page] = pathname.split('/').filter(Boolean);
  if (`/${base}` !== ADMIN_BASE_PATH) {
    return null;
  }
  return ADMIN_PAGES.find((id) => id === page) ?? null;
}

export type MenuCallbackAction = 'openHelp' | 'logout' | 'openMobileMenu';

/** A menu entry with every field of spec section 3, plus an id for tests and keys. */
export interface MenuEntry {
  id: string;
  name: string;
  url: string | null;
  icon: MenuIcon;
  /** Roles that see the entry; every role when the spec sets no restriction. */
  roles: readonly Role[];
  submenus?: MenuEntry[];
  beta: boolean;
  position: 'top' | 'bottom';
  /** A callback entry runs `callbackAction` instead of navigating. */
  callback: boolean;
  callbackAction: MenuCallbackAction | null;
  /** The one mobile entry (spec section 2: "one menu entry that contains all items"). */
  mobile: boolean;
}

type Translate = (key: string) => string;

const ALL_ROLES: readonly Role[] = ROLES;
/** Spec section 6. */
const HELP_ROLES: readonly Role[] = ['superuser', 'customer', 'partner'];
const MOBILE_ROLES: readonly Role[] = ['superuser', 'support', 'service', 'partner', 'customer'];

function page(t: Translate, id: string, url: string, nameKey: string, beta = false): MenuEntry {
  return {
    id,
    name: t(nameKey),
    url,
    icon: 'page',
    roles: ALL_ROLES,
    beta,
    position: 'top',
    callback: false,
    callbackAction: null,
    mobile: false,
  };
}

function area(t: Translate, id: string, icon: MenuIcon, submenus?: MenuEntry[]): MenuEntry {
  const entry: MenuEntry = {
    id,
    name: t(`menu.${id}`),
    url: `/${id}`,
    icon,
    roles: ALL_ROLES,
    beta: false,
    position: 'top',
    callback: false,
    callbackAction: null,
    mobile: false,
  };
  return submenus ? { ...entry, submenus } : entry;
}

function callbackEntry(
  t: Translate,
  id: string,
  icon: MenuIcon,
  action: MenuCallbackAction,
  roles: readonly Role[],
): MenuEntry {
  return {
    id,
    name: t(`menu.${id}`),
    url: null,
    icon,
    roles,
    beta: false,
    position: 'bottom',
    callback: true,
    callbackAction: action,
    mobile: false,
  };
}

/** Every entry, before role filtering, in the order of the spec's menu (section 2). */
function allEntries(t: Translate): MenuEntry[] {
  return [
    area(t, 'productivity', 'productivity', [
      page(t, 'productivity-analysis', '/productivity/analysis', 'menu.analysis'),
      page(t, 'productivity-history', '/productivity/history', 'menu.history'),
    ]),
    area(t, 'processes', 'processes', [
      page(t, 'processes-analysis', '/processes/analysis', 'menu.analysis'),
      page(t, 'processes-workflows', '/processes/workflows', 'menu.workflows'),
      page(t, 'processes-actions', '/processes/actions', 'menu.actions'),
    ]),
    area(t, 'failures', 'failures', [
      page(t, 'failures-analysis', '/failures/analysis', 'menu.analysis'),
      page(t, 'failures-overview', '/failures/overview', 'menu.overview'),
      page(t, 'failures-visualization', '/failures/visualization', 'menu.visualization'),
      page(t, 'failures-history', '/failures/history', 'menu.history'),
    ]),
    area(t, 'dashboards', 'dashboards', [
      page(t, 'dashboards-dashboard', '/dashboards/dashboard', 'menu.dashboard', true),
      page(t, 'dashboards-statusboard', '/dashboards/statusboard', 'menu.statusboard', true),
    ]),
    area(t, 'battery', 'battery'),
    callbackEntry(t, 'help', 'help', 'openHelp', HELP_ROLES),
    callbackEntry(t, 'logout', 'logout', 'logout', ALL_ROLES),
  ];
}

/** The Administration app's entries: its pages, then help and logout (superuser only). */
function adminEntries(t: Translate): MenuEntry[] {
  const superuser: readonly Role[] = ['superuser'];
  return [
    ...ADMIN_PAGES.map(
      (id): MenuEntry => ({
        id: `admin-${id}`,
        name: t(`admin.menu.${id}`),
        url: `${ADMIN_BASE_PATH}/${id}`,
        icon: id,
        roles: superuser,
        beta: false,
        position: 'top',
        callback: false,
        callbackAction: null,
        mobile: false,
      }),
    ),
    callbackEntry(t, 'help', 'help', 'openHelp', HELP_ROLES),
    callbackEntry(t, 'logout', 'logout', 'logout', ALL_ROLES),
  ];
}

function visibleTo(role: Role, entries: MenuEntry[]): MenuEntry[] {
  return entries
    .filter((entry) => entry.roles.includes(role))
    .map((entry) =>
      entry.submenus ? { ...entry, submenus: visibleTo(role, entry.submenus) } : entry,
    );
}

/**
 * The menu for one role in the current language: the desktop entries (top, then bottom)
 * followed by the mobile entry, whose submenus hold all of them, when the role has one.
 */
export function buildMenu(role: Role, t: Translate, app: AppId = 'analytics'): MenuEntry[] {
  const desktop = visibleTo(role, app === 'administration' ? adminEntries(t) : allEntries(t));
  if (!MOBILE_ROLES.includes(role)) {
    return desktop;
  }
  const mobileEntry: MenuEntry = {
    id: 'mobile-menu',
    name: t('menu.menu'),
    url: null,
    icon: 'menu',
    roles: MOBILE_ROLES,
    submenus: desktop,
    beta: false,
    position: 'top',
    callback: true,
    callbackAction: 'openMobileMenu',
    mobile: true,
  };
  return [...desktop, mobileEntry];
}

export function desktopEntries(menu: MenuEntry[], position: 'top' | 'bottom'): MenuEntry[] {
  return menu.filter((entry) => !entry.mobile && entry.position === position);
}

export function mobileEntry(menu: MenuEntry[]): MenuEntry | null {
  return menu.find((entry) => entry.mobile) ?? null;
}

/** The entry (area) whose url or sub-page url contains the pathname, for highlighting. */
export function isEntryActive(entry: MenuEntry, pathname: string): boolean {
  if (entry.url && (pathname === entry.url || pathname.startsWith(`${entry.url}/`))) {
    return true;
  }
  return (entry.submenus ?? []).some((sub) => isEntryActive(sub, pathname));
}
