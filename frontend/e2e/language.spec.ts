import { expect, test } from './support/fixtures';
import { type Language, text } from './support/i18n';
import { DEMO_USERS, E2E_USERS } from './support/users';

/** Spec section 2: menu points depend on the language; all texts in English and German. */
const user = E2E_USERS.language;
// One after the other: the tests share this user's language.
test.describe.configure({ mode: 'default' });
const AREAS = ['dashboards', 'productivity', 'processes', 'failures', 'battery', 'help', 'logout'];

async function expectMenuIn(page: import('@playwright/test').Page, language: Language) {
  const nav = page.getByTestId('nav-side');
  for (const id of AREAS) {
    await expect(nav.getByTestId(`menu-entry-${id}`)).toHaveAccessibleName(
      text(language, `menu.${id}`),
    );
  }
  await nav.getByTestId('menu-entry-failures').hover();
  await expect(page.getByTestId('menu-entry-failures-overview')).toHaveText(
    text(language, 'menu.overview'),
  );
  await page.mouse.move(700, 500);
  await expect(page.getByTestId('page-title')).toHaveText(
    text(language, 'pages.failuresAnalysis.title'),
  );
}

test.beforeEach(async ({ app }) => {
  await app.login(user, { language: 'en' });
});

test.describe('a user who has chosen no language', () => {
  test.use({ locale: 'de-DE' });

  test("sees the app in the browser's language", async ({ app, page }) => {
    // The demo users have chosen none; nothing in the e2e suite chooses one for this one.
    await page.context().clearCookies();
    await app.login(DEMO_USERS.partner);
    expect(await (await page.request.get('/v2/User/me')).json()).toMatchObject({
      data: { language: null },
    });
    await app.open('/failures/analysis');
    await expectMenuIn(page, 'de');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  });
});

test('switching to German changes the menu and page texts and is saved', async ({ app, page }) => {
  await app.open('/failures/analysis');
  await expectMenuIn(page, 'en');

  await page.getByTestId('account-menu').click();
  const saved = page.waitForResponse(
    (response) => response.request().method() === 'PATCH' && response.url().endsWith('/v2/User/me'),
  );
  await page.getByTestId('language-de').click();
  expect((await saved).ok()).toBe(true);
  await page.keyboard.press('Escape');
  await expectMenuIn(page, 'de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  expect(await (await page.request.get('/v2/User/me')).json()).toMatchObject({
    data: { language: 'de' },
  });

  // The saved language wins after a reload.
  await page.reload();
  await expectMenuIn(page, 'de');

  await page.getByTestId('account-menu').click();
  await page.getByTestId('language-en').click();
  await page.keyboard.press('Escape');
  await expectMenuIn(page, 'en');
});

test.describe('a user who chose a language', () => {
  test.use({ locale: 'de-DE' });

  test("can follow the browser's language again", async ({ app, page }) => {
    await app.patchMe({ language: 'en' });
    await app.open('/failures/analysis');
    await expectMenuIn(page, 'en');

    await page.getByTestId('account-menu').click();
    await expect(page.getByTestId('language-en').locator('svg')).toHaveCount(1);
    const saved = page.waitForResponse(
      (response) =>
        response.request().method() === 'PATCH' && response.url().endsWith('/v2/User/me'),
    );
    await page.getByTestId('language-browser').click();
    expect((await saved).request().postDataJSON()).toEqual({ language: null });
    await expect(page.getByTestId('language-browser').locator('svg')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expectMenuIn(page, 'de');
    expect(await (await page.request.get('/v2/User/me')).json()).toMatchObject({
      data: { language: null },
    });
    // Also after a reload: nothing on this device holds the earlier choice.
    await page.reload();
    await expectMenuIn(page, 'de');
  });
});

test('the help and error overlays speak German too', async ({ app, page }) => {
  await app.patchMe({ language: 'de' });
  await app.open('/failures/analysis');
  await expect(page.getByTestId('page-title')).toHaveText(
    text('de', 'pages.failuresAnalysis.title'),
  );

  await page.getByTestId('menu-entry-help').click();
  await expect(page.getByTestId('help-title')).toHaveText(
    text('de', 'help.title', { page: text('de', 'pages.failuresAnalysis.title') }),
  );
  await page.getByTestId('help-close').click();
  await expect(page.getByTestId('help-overlay')).toHaveCount(0);

  await page.route('**/v2/User/settings', (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({ status: 500, json: { status: false, msg: 'boom', data: null } })
      : route.fallback(),
  );
  await page.getByTestId('combined-switch').click();
  await expect(page.getByTestId('error-overlay-header')).toHaveText(text('de', 'network.header'));
  await expect(page.getByTestId('error-overlay-close')).toHaveText(
    text('de', 'errorOverlay.close'),
  );
  await page.getByTestId('error-overlay-close').click();
  await expect(page.getByTestId('error-overlay')).toHaveCount(0);
});

test('in either language the selectors take one row across the header of a 1,440 px laptop', async ({
  app,
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const language of ['en', 'de'] as const) {
    await app.login(user, { language });
    await app.open('/productivity/analysis');
    const bar = page.getByTestId('filter-bar');
    await expect(bar.getByTestId('combined-switch')).toBeVisible();
    const header = await page.getByTestId('page-header').boundingBox();
    const controls = ['date-mode', 'machine-selector', 'shift-selector', 'filters-reset'];
    const boxes = await Promise.all(controls.map((id) => bar.getByTestId(id).boundingBox()));
    const bottoms = boxes.map((box) => Math.round((box?.y ?? 0) + (box?.height ?? 0)));
    // One row: bottoms within a few pixels (the mode switch and the reset icon are smaller
    // than the inputs); a wrapped control ends a whole row, at least 48 px, lower.
    expect(Math.max(...bottoms) - Math.min(...bottoms), language).toBeLessThanOrEqual(12);
    expect((await bar.boundingBox())?.width).toBe(header?.width);
  }
});
