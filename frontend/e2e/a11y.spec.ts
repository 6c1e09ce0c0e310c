import type { Page } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { backfilledSelection } from './support/filters';
import { expect, expectRoute, test } from './support/fixtures';
import { type Language, text } from './support/i18n';
import { DEMO_USERS, E2E_USERS } from './support/users';
import { VehicleStatePublisher } from './support/vda5050';

/**
 * Accessibility (issue 23): axe-core on every page with no critical and no serious
 * violation (the Administration app's pages too, issue 25), the login page's landmarks, the skip link and the side menu by keyboard.
 * One login visits every page (the audit itself takes a few seconds a page); the file owns
 * its user, whose language it switches, so its tests run one after the other.
 */
test.describe.configure({ mode: 'serial' });

const USER = E2E_USERS.a11y;

/** Every page of the menu: route and the test id it shows when it is there. */
const PAGES = [
  ['/dashboards/dashboard', 'page-dashboard'],
  ['/dashboards/statusboard', 'page-statusboard'],
  ['/productivity/analysis', 'page-productivityAnalysis'],
  ['/productivity/history', 'page-productivityHistory'],
  ['/processes/analysis', 'page-processesAnalysis'],
  ['/processes/workflows', 'page-processesWorkflows'],
  ['/processes/actions', 'page-processesActions'],
  ['/failures/analysis', 'page-failuresAnalysis'],
  ['/failures/overview', 'page-failuresOverview'],
  ['/failures/visualization', 'page-failuresVisualization'],
  ['/failures/history', 'page-failuresHistory'],
  ['/battery', 'page-battery'],
] as const;

/** Pages audited once more in German (longer words, other number formats). */
const GERMAN_PAGES = ['/dashboards/dashboard', '/failures/history'];

/**
 * Hamburg vehicles (VDA 5050 2.x) this file puts into the coloured states, so the
 * statusboard shows white text on each state colour; other files publish for HAM-05 only.
 */
const LIVE_STATES = [
  ['HAM-01', 'working', { driving: true }],
  ['HAM-02', 'charging', {}],
  ['HAM-06', 'manual', { operatingMode: 'MANUAL' }],
  [
    'HAM-07',
    'error',
    { errors: [{ errorType: 'a11yCheck', errorLevel: 'FATAL', errorReferences: [] }] },
  ],
] as const;

/** The page is there and has loaded what it shows (charts, lists, tiles). */
async function settled(page: Page, testId: string): Promise<void> {
  await expect(page.getByTestId(testId)).toBeVisible();
  await expect(page.locator('[data-status="loading"], [data-testid$="-loading"]')).toHaveCount(0);
}

async function openLoggedIn(page: Page, route: string): Promise<void> {
  // A changed hash alone would keep the app's state from before the API login.
  await page.goto(`/#${route}`);
  await page.reload();
}

async function expectSkipLink(page: Page, language: Language): Promise<void> {
  await page.keyboard.press('Tab');
  const skip = page.getByTestId('skip-link');
  await expect(skip).toBeFocused();
  await expect(skip).toHaveText(text(language, 'app.skipToContent'));
  await expect(skip).toBeInViewport();
}

test('axe-core finds no critical or serious violation on any page', async ({ app, page }) => {
  test.setTimeout(300_000);
  const found: Record<string, string[]> = {};
  const audit = async (name: string, include?: string) => {
    const violations = await seriousViolations(page, include);
    if (violations.length > 0) {
      found[name] = violations;
    }
  };

  await app.open('/login');
  await expect(page.getByTestId('login-form')).toBeVisible();
  await expect(page.getByRole('main')).toContainText(text('en', 'login.title'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'login.title'));
  await audit('login');

  await app.login(USER, { language: 'en', onboardingWatched: false });
  await app.patchSettings(backfilledSelection());
  await openLoggedIn(page, PAGES[0][0]);
  await test.step('onboarding overlay', async () => {
    await expect(page.getByTestId('onboarding-overlay')).toBeVisible();
    await audit('onboarding overlay');
    await page.getByTestId('onboarding-skip').click();
    await expect(page.getByTestId('onboarding-overlay')).toBeHidden();
  });
  for (const [route, testId] of PAGES) {
    await test.step(route, async () => {
      await app.open(route);
      await settled(page, testId);
      await audit(route);
    });
  }

  await test.step('statusboard with a vehicle in each coloured state', async () => {
    const vehicles = await app.vehicles();
    await app.open('/dashboards/statusboard');
    await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-status', 'live');
    for (const [serial, state, changes] of LIVE_STATES) {
      const vehicle = vehicles.find((candidate) => candidate.serialNumber === serial);
      if (!vehicle) {
        throw new Error(`the demo customer needs the vehicle ${serial}`);
      }
      const publisher = await VehicleStatePublisher.connect(vehicle);
      try {
        await publisher.publishState(
          { batteryCharge: 64, charging: state === 'charging' },
          changes,
        );
      } finally {
        await publisher.close();
      }
      await expect(page.getByTestId(`status-tile-${vehicle.id}`)).toHaveAttribute(
        'data-state',
        state,
      );
    }
    await audit('/dashboards/statusboard (live states)');
  });

  await test.step('help overlay', async () => {
    await page.getByTestId('menu-entry-help').click();
    await expect(page.getByTestId('help-overlay')).toBeVisible();
    await audit('help overlay');
    await page.getByTestId('help-close').click();
    await expect(page.getByTestId('help-overlay')).toBeHidden();
  });

  await test.step('account menu and the change-password dialog', async () => {
    await page.getByTestId('account-menu').click();
    await expect(page.getByTestId('account-menu-dropdown')).toBeVisible();
    await audit('account menu', '[data-testid="account-menu-dropdown"]');
    await page.getByTestId('change-password').click();
    const dialog = page.getByRole('dialog', { name: text('en', 'user.password.title') });
    await expect(dialog).toBeVisible();
    // Submitted empty: every field shows its problem, which must be announced too.
    await dialog.getByTestId('password-submit').click();
    await expect(dialog.getByTestId('password-current')).toHaveAttribute('aria-invalid', 'true');
    await audit('change-password dialog', '[role="dialog"]');
    await dialog.getByTestId('password-cancel').click();
    await expect(dialog).toHaveCount(0);
  });

  await test.step('phone width, with the menu drawer', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await app.open('/failures/analysis');
    await settled(page, 'page-failuresAnalysis');
    await expect(page.getByTestId('shell')).toHaveAttribute('data-navigation', 'mobile');
    await audit('/failures/analysis (390 px)');
    await page.getByTestId('menu-entry-mobile-menu').click();
    await expect(page.getByTestId('mobile-menu-drawer')).toBeVisible();
    await audit('mobile menu (390 px)', '[data-testid="mobile-menu-drawer"]');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('mobile-menu-drawer')).toBeHidden();
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await app.patchMe({ language: 'de' });
  for (const route of GERMAN_PAGES) {
    await test.step(`${route} (de)`, async () => {
      await openLoggedIn(page, route);
      const testId = PAGES.find(([candidate]) => candidate === route)?.[1] ?? '';
      await settled(page, testId);
      await expect(page.getByTestId('nav-side')).toHaveAttribute(
        'aria-label',
        text('de', 'menu.menu'),
      );
      await audit(`${route} (de)`);
      await expectSkipLink(page, 'de');
    });
  }
  expect(found).toEqual({});
});

/** The Administration app's pages (issue 25): route and the test id it shows. */
const ADMIN_PAGES = [
  ['/admin/organizations', 'page-admin-organizations'],
  ['/admin/sites', 'page-admin-sites'],
  ['/admin/vehicles', 'page-admin-vehicles'],
  ['/admin/users', 'page-admin-users'],
  ['/admin/tokens', 'page-admin-tokens'],
  ['/admin/deadLetters', 'page-admin-deadLetters'],
  ['/admin/jobs', 'page-admin-jobs'],
  ['/admin/audit', 'page-admin-audit'],
] as const;

test('axe-core finds no critical or serious violation in the Administration app', async ({
  app,
  page,
}) => {
  test.setTimeout(240_000);
  const found: Record<string, string[]> = {};
  const audit = async (name: string, include?: string) => {
    const violations = await seriousViolations(page, include);
    if (violations.length > 0) {
      found[name] = violations;
    }
  };
  // The demo superuser is only read here (its language stays English for admin.spec.ts).
  await app.login(DEMO_USERS.superuser, { language: 'en' });
  await openLoggedIn(page, ADMIN_PAGES[0][0]);
  for (const [route, testId] of ADMIN_PAGES) {
    await test.step(route, async () => {
      await app.open(route);
      await settled(page, testId);
      await audit(route);
    });
  }
  await test.step('a site with its shift calendar and rule preview', async () => {
    const sites = (await (await page.request.get('/v2/Admin/Sites')).json()).data as Array<{
      id: number;
    }>;
    await app.open(`/admin/sites/${sites[0]?.id}`);
    await settled(page, 'page-admin-site');
    await expect(page.getByTestId('rules-preview')).toHaveAttribute('data-fresh', 'true');
    await audit('/admin/sites/:id');
  });
  await test.step('the tokens of a site', async () => {
    await page.getByTestId('site-tokens-link').click();
    await expect(page.getByTestId('tokens-table')).toBeVisible();
    await audit('/admin/tokens?siteId');
  });
  await test.step('help overlay of an admin page and the new-user dialog', async () => {
    await app.open('/admin/users');
    await settled(page, 'page-admin-users');
    await page.getByTestId('menu-entry-help').click();
    await expect(page.getByTestId('help-overlay')).toBeVisible();
    await audit('admin help overlay');
    await page.getByTestId('help-close').click();
    await expect(page.getByTestId('help-overlay')).toBeHidden();
    await page.getByTestId('user-create-open').click();
    await expect(page.getByTestId('user-create-dialog')).toBeVisible();
    await audit('new-user dialog');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('user-create-dialog')).toBeHidden();
  });
  await test.step('phone width, with the admin menu drawer', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await app.open('/admin/sites');
    await settled(page, 'page-admin-sites');
    await expect(page.getByTestId('shell')).toHaveAttribute('data-navigation', 'mobile');
    await audit('/admin/sites (390 px)');
    await page.getByTestId('menu-entry-mobile-menu').click();
    await expect(page.getByTestId('mobile-menu-drawer')).toBeVisible();
    await audit('admin mobile menu (390 px)', '[data-testid="mobile-menu-drawer"]');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('mobile-menu-drawer')).toBeHidden();
    await page.setViewportSize({ width: 1280, height: 800 });
  });
  expect(found).toEqual({});
});

test('the skip link and the side menu work by keyboard', async ({ app, page }) => {
  await app.login(USER, { language: 'en' });
  // On a failures page: the flyout shows its active page too (audited below).
  await openLoggedIn(page, '/failures/analysis');
  await settled(page, 'page-failuresAnalysis');

  // The skip link is the first stop of Tab and moves the focus to the page content.
  await expectSkipLink(page, 'en');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shell-content')).toBeFocused();

  // Enter on an area opens its flyout and moves the focus to its first page.
  const trigger = page.getByTestId('menu-entry-failures');
  const flyout = page.getByTestId('menu-flyout-failures');
  const items = flyout.getByRole('menuitem');
  await trigger.focus();
  await page.keyboard.press('Enter');
  await expect(flyout).toBeVisible();
  await expect(trigger).toHaveAttribute('aria-expanded', 'true');
  await expect(items.nth(0)).toBeFocused();
  expect(await seriousViolations(page, '[data-testid="menu-flyout-failures"]')).toEqual([]);

  // Arrow keys move between the pages (wrapping around), Home and End jump.
  await page.keyboard.press('ArrowDown');
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(items.nth(3)).toBeFocused();
  await page.keyboard.press('Home');
  await expect(items.nth(0)).toBeFocused();

  // Escape closes the flyout and gives the focus back to the area icon.
  await page.keyboard.press('Escape');
  await expect(flyout).toBeHidden();
  await expect(trigger).toBeFocused();
  await expect(trigger).toHaveAttribute('aria-expanded', 'false');

  // Space opens it as well; Enter on a page opens that page and closes the flyout.
  await page.keyboard.press('Space');
  await expect(items.nth(0)).toBeFocused();
  await page.keyboard.press('End');
  await expect(items.nth(3)).toHaveAttribute('data-testid', 'menu-entry-failures-history');
  await expect(items.nth(3)).toBeFocused();
  await page.keyboard.press('Enter');
  await expectRoute(page, '/failures/history');
  await expect(page.getByTestId('page-failuresHistory')).toBeVisible();
  await expect(flyout).toBeHidden();
});
