import { berlinDay } from './support/filters';
import { expect, expectRoute, test } from './support/fixtures';
import { text } from './support/i18n';
import { DEMO_USERS } from './support/users';

/** Spec section 2 (shell layout) and section 9 (layout constants). */
test.describe.configure({ mode: 'parallel' });

const MOBILE = { width: 390, height: 844 };
const TABLET = { width: 820, height: 1180 };

test.describe('desktop', () => {
  test('side navigation 4.25rem wide next to the page; full window height', async ({
    app,
    page,
  }) => {
    await app.login(DEMO_USERS.customer);
    await app.open('/dashboards/dashboard');
    await expect(page.getByTestId('shell')).toHaveAttribute('data-navigation', 'side');
    const nav = await page.getByTestId('nav-side').boundingBox();
    expect(nav?.width).toBe(68); // 4.25rem at 16px
    expect(nav?.x).toBe(0);
    await expect(page.getByTestId('nav-mobile')).toHaveCount(0);
    const shell = await page.getByTestId('shell').boundingBox();
    expect(shell?.height).toBe(800);
  });

  test('displayMode=true in the address hides the navigation', async ({ app, page }) => {
    await app.login(DEMO_USERS.customer);
    // As a user types it: the query at the end of the address, inside the hash route.
    await app.open('/dashboards/statusboard?displayMode=true');
    await expect(page.getByTestId('page-statusboard')).toBeVisible();
    await expect(page.getByTestId('shell')).toHaveAttribute('data-navigation', 'hidden');
    await expect(page.getByTestId('nav-side')).toHaveCount(0);
    await expect(page.getByTestId('nav-mobile')).toHaveCount(0);
    const content = await page.getByTestId('shell-content').boundingBox();
    expect(content?.x).toBe(0);

    // Redirects keep the display mode.
    await app.open('/dashboards?displayMode=true');
    await expectRoute(page, '/dashboards/dashboard?displayMode=true');
    await expect(page.getByTestId('page-dashboard')).toBeVisible();
    await expect(page.getByTestId('nav-side')).toHaveCount(0);
    // Auto-refresh is always on: its menu marks the interval in effect, "off" cannot be chosen.
    await page.getByTestId('auto-refresh').click();
    await expect(page.getByTestId('auto-refresh-1')).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByTestId('auto-refresh-0')).toHaveAttribute('aria-checked', 'false');
    await expect(page.getByTestId('auto-refresh-0')).toBeDisabled();
    await page.keyboard.press('Escape');

    // Any other value, or none, shows the navigation again.
    await app.open('/dashboards/statusboard?displayMode=false');
    await expect(page.getByTestId('nav-side')).toBeVisible();
    await app.open('/dashboards/statusboard');
    await expect(page.getByTestId('nav-side')).toBeVisible();
  });

  test('content is at most 1920px wide on a 2560px screen', async ({ app, page }) => {
    await page.setViewportSize({ width: 2560, height: 1200 });
    await app.login(DEMO_USERS.customer);
    await app.open('/productivity/analysis');
    await expect(page.getByTestId('page-productivityAnalysis')).toBeVisible();
    const inner = page.getByTestId('shell-content').locator('> .fs-content-inner');
    const box = await inner.boundingBox();
    expect(box?.width).toBe(1920);
    // Centred in the space beside the 68px navigation.
    const free = 2560 - 68;
    expect(Math.abs((box?.x ?? 0) - (68 + (free - 1920) / 2))).toBeLessThanOrEqual(1);
    const header = await page.getByTestId('page-header').boundingBox();
    expect(header?.width ?? 0).toBeLessThanOrEqual(1920);
  });
});

test.describe('mobile', () => {
  test.use({ viewport: MOBILE, hasTouch: true, isMobile: true });

  test('one menu entry that holds all items; page height is the inner height', async ({
    app,
    page,
  }) => {
    await app.login(DEMO_USERS.customer);
    await app.open('/dashboards/dashboard');
    const bar = page.getByTestId('nav-mobile');
    await expect(bar).toBeVisible();
    await expect(page.getByTestId('nav-side')).toHaveCount(0);
    await expect(page.getByTestId('shell')).toHaveAttribute('data-navigation', 'mobile');
    await expect(bar.locator('[data-testid^="menu-entry-"]')).toHaveCount(1);

    const innerHeight = await page.evaluate(() => window.innerHeight);
    const shell = await page.getByTestId('shell').boundingBox();
    expect(shell?.height).toBe(innerHeight);
    expect(await page.getByTestId('shell').evaluate((el) => el.style.height)).toBe(
      `${innerHeight}px`,
    );

    await bar.getByTestId('menu-entry-mobile-menu').click();
    const drawer = page.getByTestId('mobile-menu-drawer');
    await expect(drawer).toBeVisible();
    await expect(page.getByRole('dialog')).toContainText(text('en', 'menu.menu'));
    const top = [
      'productivity',
      'processes',
      'failures',
      'dashboards',
      'battery',
      'help',
      'logout',
    ];
    for (const id of top) {
      await expect(drawer.getByTestId(`mobile-menu-entry-${id}`)).toContainText(
        text('en', `menu.${id}`),
      );
    }
    await expect(drawer.getByTestId('app-analytics')).toHaveAttribute('data-active', 'true');
    // The dashboards group is open on a dashboard page, with its beta marks.
    await expect(drawer.getByTestId('mobile-menu-beta-dashboards-dashboard')).toBeVisible();
    await expect(drawer.getByTestId('mobile-menu-beta-dashboards-statusboard')).toBeVisible();

    await drawer.getByTestId('mobile-menu-entry-processes').click();
    for (const sub of ['analysis', 'workflows', 'actions']) {
      await expect(drawer.getByTestId(`mobile-menu-entry-processes-${sub}`)).toBeVisible();
    }
    await drawer.getByTestId('mobile-menu-entry-processes-workflows').click();
    await expectRoute(page, '/processes/workflows');
    await expect(page.getByTestId('page-processesWorkflows')).toBeVisible();
    await expect(drawer).toBeHidden();

    await bar.getByTestId('menu-entry-mobile-menu').click();
    await page.getByTestId('mobile-menu-entry-help').click();
    await expect(page.getByTestId('help-overlay')).toHaveAttribute(
      'data-help-topic',
      'processesWorkflows',
    );
    await page.getByTestId('help-close').click();
    await expect(page.getByTestId('help-overlay')).toHaveCount(0);
  });

  test('the mobile menu follows the role: no help for service', async ({ app, page }) => {
    await app.login(DEMO_USERS.service);
    await app.open('/battery');
    await page.getByTestId('menu-entry-mobile-menu').click();
    const drawer = page.getByTestId('mobile-menu-drawer');
    await expect(drawer.getByTestId('mobile-menu-entry-battery')).toBeVisible();
    await expect(drawer.getByTestId('mobile-menu-entry-logout')).toBeVisible();
    await expect(drawer.getByTestId('mobile-menu-entry-help')).toHaveCount(0);
  });

  test('display mode does not hide the mobile navigation', async ({ app, page }) => {
    await app.login(DEMO_USERS.partner);
    await app.open('/dashboards/statusboard?displayMode=true');
    await expect(page.getByTestId('page-statusboard')).toBeVisible();
    await expect(page.getByTestId('nav-mobile')).toBeVisible();
  });
});

test.describe('tablet', () => {
  test.use({ viewport: TABLET, hasTouch: true, isMobile: true });

  test('below 1024px the mobile navigation is used and the height follows the window', async ({
    app,
    page,
  }) => {
    await app.login(DEMO_USERS.partner);
    await app.open('/failures/overview');
    await expect(page.getByTestId('nav-mobile')).toBeVisible();
    const innerHeight = await page.evaluate(() => window.innerHeight);
    expect((await page.getByTestId('shell').boundingBox())?.height).toBe(innerHeight);

    // Resizing (for example turning the device) keeps the page at the window's height.
    await page.setViewportSize({ width: 1000, height: 700 });
    await expect
      .poll(async () => (await page.getByTestId('shell').boundingBox())?.height)
      .toBe(700);
  });
});

test.describe('mobile administration', () => {
  test.use({ viewport: MOBILE, hasTouch: true, isMobile: true });

  test("a row's actions stay on screen while the wide table scrolls sideways", async ({
    app,
    page,
  }) => {
    await app.login(DEMO_USERS.superuser);
    const lists: Array<[route: string, table: string, edit: string, dialog: string]> = [
      ['/admin/vehicles', 'vehicles-table', 'vehicle-edit', 'vehicle-dialog'],
      ['/admin/users', 'users-table', 'user-edit', 'user-edit-dialog'],
    ];
    for (const [route, table, edit, dialog] of lists) {
      await app.open(route);
      const button = page.getByTestId(table).getByTestId(edit).first();
      await expect(button).toBeVisible();
      // The table is wider than the phone (it scrolls), its actions are not beyond the edge.
      const wide = await page
        .getByTestId(table)
        .evaluate((element) => element.scrollWidth > window.innerWidth);
      expect(wide, table).toBe(true);
      const box = await button.boundingBox();
      expect((box?.x ?? Infinity) + (box?.width ?? 0), edit).toBeLessThanOrEqual(MOBILE.width);
      // Pinned cells look like their row: the stripe's colour, or the page's behind a plain
      // row (header included), not a box of their own.
      const unlike = await page.getByTestId(table).evaluate((element) => {
        const background = (node: Element) => getComputedStyle(node).backgroundColor;
        const pageColour = background(document.body);
        return [...element.querySelectorAll('tr')].filter((row) => {
          const own = background(row);
          const expected = own === 'rgba(0, 0, 0, 0)' ? pageColour : own;
          return row.lastElementChild && background(row.lastElementChild) !== expected;
        }).length;
      });
      expect(unlike, table).toBe(0);
      await button.tap();
      await expect(page.getByTestId(dialog)).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(page.getByTestId(dialog)).toHaveCount(0);
    }
  });
});

test.describe('mobile pager', () => {
  // The partner has chosen no language: the app follows this German browser.
  test.use({ viewport: MOBILE, hasTouch: true, isMobile: true, locale: 'de-DE' });

  test('the pager keeps its German labels whole on a phone', async ({ app, page }) => {
    await app.login(DEMO_USERS.partner);
    const view = `mode=custom&from=${berlinDay(-1)}&to=${berlinDay(0)}&vehicles=all&shift=all`;
    await app.open(`/failures/history?${view}&combined=false`);
    await expect(page.getByTestId('pager-prev')).toContainText(
      text('de', 'processes.list.previous'),
    );
    for (const id of ['pager-prev', 'pager-next', 'pager-page']) {
      // Cut labels ("Zurüc", "Weite") are wider than the box they are drawn in.
      const cut = await page
        .getByTestId(id)
        .evaluate((element) =>
          [element, ...element.querySelectorAll('*')].some(
            (part) => part.scrollWidth > part.clientWidth + 1,
          ),
        );
      expect(cut, id).toBe(false);
    }
  });
});
