import { expect, expectRoute, test } from './support/fixtures';
import { text } from './support/i18n';
import { DEMO_USERS, ROLES, type Role } from './support/users';

/** Spec section 2 (menu) and section 6 (help only for superuser, customer and partner). */
const HELP_ROLES: readonly Role[] = ['superuser', 'customer', 'partner'];

// Read-only: the tests of this file may run side by side.
test.describe.configure({ mode: 'parallel' });

const AREAS = ['productivity', 'processes', 'failures', 'dashboards', 'battery'] as const;

/** Sub-pages per area in menu order, with the translation key of their name and beta flag. */
const SUB_PAGES: Record<string, Array<{ id: string; key: string; beta: boolean }>> = {
  dashboards: [
    { id: 'dashboard', key: 'menu.dashboard', beta: true },
    { id: 'statusboard', key: 'menu.statusboard', beta: true },
  ],
  productivity: [
    { id: 'analysis', key: 'menu.analysis', beta: false },
    { id: 'history', key: 'menu.history', beta: false },
  ],
  processes: [
    { id: 'analysis', key: 'menu.analysis', beta: false },
    { id: 'workflows', key: 'menu.workflows', beta: false },
    { id: 'actions', key: 'menu.actions', beta: false },
  ],
  failures: [
    { id: 'analysis', key: 'menu.analysis', beta: false },
    { id: 'overview', key: 'menu.overview', beta: false },
    { id: 'visualization', key: 'menu.visualization', beta: false },
    { id: 'history', key: 'menu.history', beta: false },
  ],
};

for (const role of ROLES) {
  test(`${role}: side navigation with the areas, sub-pages, beta marks and bottom entries`, async ({
    app,
    page,
  }) => {
    await app.login(DEMO_USERS[role]);
    await app.open('/dashboards');
    await expectRoute(page, '/dashboards/dashboard');
    const nav = page.getByTestId('nav-side');
    await expect(nav).toBeVisible();

    // Order and names: the five areas, then help (only some roles) and logout at the bottom.
    const hasHelp = HELP_ROLES.includes(role);
    const expectedIds = [...AREAS, ...(hasHelp ? ['help'] : []), 'logout'];
    await expect(nav.locator('[data-testid^="menu-entry-"]')).toHaveCount(expectedIds.length);
    const ids = await nav
      .locator('[data-testid^="menu-entry-"]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-testid')));
    expect(ids).toEqual(expectedIds.map((id) => `menu-entry-${id}`));
    for (const id of expectedIds) {
      await expect(nav.getByTestId(`menu-entry-${id}`)).toHaveAccessibleName(
        text('en', `menu.${id}`),
      );
    }

    // Help and logout sit at the bottom of the navigation, below every area.
    const viewport = page.viewportSize();
    const batteryBox = await nav.getByTestId('menu-entry-battery').boundingBox();
    const logoutBox = await nav.getByTestId('menu-entry-logout').boundingBox();
    expect(batteryBox && logoutBox && viewport).toBeTruthy();
    if (batteryBox && logoutBox && viewport) {
      expect(logoutBox.y).toBeGreaterThan(viewport.height / 2);
      expect(logoutBox.y + logoutBox.height).toBeGreaterThan(viewport.height - 80);
      if (hasHelp) {
        const helpBox = await nav.getByTestId('menu-entry-help').boundingBox();
        expect(helpBox?.y ?? 0).toBeGreaterThan(batteryBox.y + 200);
        expect(helpBox?.y ?? 0).toBeLessThan(logoutBox.y);
      }
    }

    // Sub-pages in a flyout per area, beta marks only on dashboard and statusboard.
    for (const [area, subPages] of Object.entries(SUB_PAGES)) {
      await nav.getByTestId(`menu-entry-${area}`).hover();
      const flyout = page.getByTestId(`menu-flyout-${area}`);
      await expect(flyout).toBeVisible();
      const items = flyout.getByRole('menuitem');
      await expect(items).toHaveCount(subPages.length);
      for (const [index, sub] of subPages.entries()) {
        const item = items.nth(index);
        await expect(item).toHaveAttribute('data-testid', `menu-entry-${area}-${sub.id}`);
        await expect(item).toContainText(text('en', sub.key));
        // The page, with the view the address holds (the menu carries it page to page).
        await expect(item).toHaveAttribute('href', new RegExp(`^#/${area}/${sub.id}(\\?|$)`));
        await expect(item.getByTestId(`menu-beta-${area}-${sub.id}`)).toHaveCount(sub.beta ? 1 : 0);
        if (sub.beta) {
          await expect(item.getByTestId(`menu-beta-${area}-${sub.id}`)).toHaveText(
            text('en', 'menu.beta'),
          );
        }
      }
      await page.mouse.move(600, 400);
      await expect(flyout).toBeHidden();
    }

    // Battery has no sub-pages: a direct link, no flyout.
    const battery = nav.getByTestId('menu-entry-battery');
    await expect(battery).toHaveAttribute('href', /^#\/battery(\?|$)/);
    await expect(battery).not.toHaveAttribute('aria-haspopup', /.*/);
    await battery.hover();
    await expect(page.getByTestId('menu-flyout-battery')).toHaveCount(0);
  });
}

test('the app switcher shows Analytics as the active app', async ({ app, page }) => {
  await app.login(DEMO_USERS.customer);
  await app.open('/dashboards/dashboard');
  await page.getByTestId('app-switcher').click();
  const analytics = page.getByTestId('app-switcher-dropdown').getByTestId('app-analytics');
  await expect(analytics).toBeVisible();
  await expect(analytics).toHaveAttribute('data-active', 'true');
  await expect(analytics).toHaveAttribute('aria-current', 'page');
  await expect(analytics).toContainText(text('en', 'app.analytics'));
});

test('menu entries navigate to their pages', async ({ app, page }) => {
  await app.login(DEMO_USERS.partner);
  await app.open('/dashboards/dashboard');
  const nav = page.getByTestId('nav-side');

  await nav.getByTestId('menu-entry-failures').hover();
  await page.getByTestId('menu-entry-failures-visualization').click();
  await expectRoute(page, '/failures/visualization');
  await expect(page.getByTestId('page-failuresVisualization')).toBeVisible();
  await expect(nav.getByTestId('menu-entry-failures')).toHaveAttribute('data-active', 'true');

  // The previous entry's flyout may still be closing: hover until this one is open, from
  // outside the menu each time (a pointer already on the icon sends no new enter event).
  await expect(async () => {
    await page.mouse.move(600, 400);
    await nav.getByTestId('menu-entry-dashboards').hover();
    await expect(page.getByTestId('menu-entry-dashboards-statusboard')).toBeVisible({
      timeout: 2_000,
    });
  }).toPass();
  await page.getByTestId('menu-entry-dashboards-statusboard').click();
  await expectRoute(page, '/dashboards/statusboard');
  await expect(page.getByTestId('page-statusboard')).toBeVisible();
  await expect(page.getByTestId('page-beta')).toHaveText(text('en', 'menu.beta'));

  await nav.getByTestId('menu-entry-battery').click();
  await expectRoute(page, '/battery');
  await expect(page.getByTestId('page-battery')).toBeVisible();
  await expect(nav.getByTestId('menu-entry-battery')).toHaveAttribute('data-active', 'true');
});
