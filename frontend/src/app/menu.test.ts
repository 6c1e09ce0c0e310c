import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../api/types';
import de from '../i18n/de.json';
import en from '../i18n/en.json';
import { buildMenu, desktopEntries, isEntryActive, type MenuEntry, mobileEntry } from './menu';

function translator(resource: unknown) {
  return (key: string) => {
    const value = key
      .split('.')
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], resource);
    if (typeof value !== 'string') {
      throw new Error(`missing translation ${key}`);
    }
    return value;
  };
}

const tEn = translator(en);
const tDe = translator(de);

function ids(entries: MenuEntry[]): string[] {
  return entries.map((entry) => entry.id);
}

const HELP_ROLES: Role[] = ['superuser', 'customer', 'partner'];

describe.each(ROLES)('menu for role %s', (role) => {
  const menu = buildMenu(role, tEn);

  it('has the five areas on top with the sub-pages of spec section 2', () => {
    const top = desktopEntries(menu, 'top');
    expect(ids(top)).toEqual(['productivity', 'processes', 'failures', 'dashboards', 'battery']);
    const subIds = Object.fromEntries(top.map((entry) => [entry.id, ids(entry.submenus ?? [])]));
    expect(subIds).toEqual({
      dashboards: ['dashboards-dashboard', 'dashboards-statusboard'],
      productivity: ['productivity-analysis', 'productivity-history'],
      processes: ['processes-analysis', 'processes-workflows', 'processes-actions'],
      failures: [
        'failures-analysis',
        'failures-overview',
        'failures-visualization',
        'failures-history',
      ],
      battery: [],
    });
    expect(top.find((entry) => entry.id === 'battery')?.submenus).toBeUndefined();
  });

  it('marks dashboard and statusboard beta and nothing else', () => {
    const betas = menu
      .flatMap((entry) => [entry, ...(entry.submenus ?? [])])
      .filter((entry) => entry.beta && !entry.mobile);
    expect(ids(betas)).toEqual(['dashboards-dashboard', 'dashboards-statusboard']);
  });

  it('has help only for superuser, customer and partner, and logout for all, at the bottom', () => {
    const bottom = desktopEntries(menu, 'bottom');
    const expected = HELP_ROLES.includes(role) ? ['help', 'logout'] : ['logout'];
    expect(ids(bottom)).toEqual(expected);
    for (const entry of bottom) {
      expect(entry.callback).toBe(true);
      expect(entry.url).toBeNull();
    }
    expect(bottom.find((entry) => entry.id === 'logout')?.callbackAction).toBe('logout');
  });

  it('has the mobile entry holding every desktop item', () => {
    const mobile = mobileEntry(menu);
    expect(mobile).not.toBeNull();
    expect(mobile?.callbackAction).toBe('openMobileMenu');
    expect(ids(mobile?.submenus ?? [])).toEqual(ids(menu.filter((entry) => !entry.mobile)));
  });

  it('gives every entry all fields of spec section 3', () => {
    for (const entry of menu.flatMap((item) => [item, ...(item.submenus ?? [])])) {
      expect(Object.keys(entry)).toEqual(
        expect.arrayContaining([
          'name',
          'url',
          'icon',
          'roles',
          'beta',
          'position',
          'callback',
          'callbackAction',
        ]),
      );
      expect(entry.roles).toContain(role);
    }
  });
});

describe('menu language', () => {
  it('names entries in the given language', () => {
    const enNames = buildMenu('customer', tEn).map((entry) => entry.name);
    const deNames = buildMenu('customer', tDe).map((entry) => entry.name);
    expect(enNames).toEqual([
      'Productivity',
      'Processes',
      'Failures',
      'Dashboards',
      'Battery',
      'Help',
      'Log out',
      'Menu',
    ]);
    expect(deNames).toEqual([
      'Produktivität',
      'Prozesse',
      'Störungen',
      'Dashboards',
      'Batterie',
      'Hilfe',
      'Abmelden',
      'Menü',
    ]);
  });
});

describe('isEntryActive', () => {
  it('matches the area of a sub-page', () => {
    const [productivity, , , dashboards] = buildMenu('support', tEn);
    expect(dashboards && isEntryActive(dashboards, '/dashboards/statusboard')).toBe(true);
    expect(productivity && isEntryActive(productivity, '/dashboards/statusboard')).toBe(false);
    expect(productivity && isEntryActive(productivity, '/productivity/history')).toBe(true);
  });
});
