import { expect, test } from './support/fixtures';
import { text } from './support/i18n';
import { DEMO_USERS } from './support/users';

/** Spec sections 2, 4 and 8: help overlay, error overlay and the error catalogue. */
test.describe.configure({ mode: 'parallel' });

test('help opens from the menu with the current page and closes on close', async ({
  app,
  page,
}) => {
  await app.login(DEMO_USERS.customer);
  await app.open('/productivity/analysis');
  await expect(page.getByTestId('page-productivityAnalysis')).toBeVisible();
  await expect(page.getByTestId('help-overlay')).toHaveCount(0);

  await page.getByTestId('menu-entry-help').click();
  const help = page.getByTestId('help-overlay');
  await expect(help).toBeVisible();
  await expect(help).toHaveAttribute('data-help-topic', 'productivityAnalysis');
  const title = text('en', 'pages.productivityAnalysis.title');
  await expect(page.getByTestId('help-title')).toHaveText(
    text('en', 'help.title', { page: title }),
  );
  await expect(help).toContainText(text('en', 'pages.productivityAnalysis.summary'));
  // The KPI definitions that apply to the page.
  const availability = page.getByTestId('help-kpi-availability');
  await expect(availability).toContainText(text('en', 'kpi.availability.name'));
  await expect(availability).toContainText(text('en', 'kpi.availability.definition'));

  await page.getByTestId('help-close').click();
  await expect(page.getByTestId('help-overlay')).toHaveCount(0);

  // On another page the help is about that page.
  await app.open('/battery');
  await page.getByTestId('menu-entry-help').click();
  await expect(page.getByTestId('help-overlay')).toHaveAttribute('data-help-topic', 'battery');
  await expect(page.getByTestId('help-kpi-health')).toBeVisible();
  await page.getByTestId('help-close').click();
  await expect(page.getByTestId('help-overlay')).toHaveCount(0);
});

test('a server failure shows the network error overlay with its details; close clears it', async ({
  app,
  page,
}) => {
  await app.login(DEMO_USERS.partner);
  await page.route('**/v2/Sites', (route) =>
    route.fulfill({ status: 500, json: { status: false, msg: 'boom', data: null } }),
  );
  await app.open('/productivity/analysis');

  const overlay = page.getByTestId('error-overlay');
  await expect(overlay).toBeVisible();
  await expect(overlay).toHaveAttribute('data-error-type', 'NETWORK');
  await expect(page.getByTestId('error-overlay-header')).toHaveText(text('en', 'network.header'));
  await expect(page.getByTestId('error-overlay-message')).toHaveText('boom');
  await expect(page.getByTestId('error-overlay-url')).toHaveText('/v2/Sites');
  await expect(page.getByTestId('error-overlay-user')).toHaveText(DEMO_USERS.partner.email);

  await page.getByTestId('error-overlay-close').click();
  await expect(page.getByTestId('error-overlay')).toHaveCount(0);
  // The page itself stays usable.
  await expect(page.getByTestId('page-productivityAnalysis')).toBeVisible();
});

test('a failed save carries the request body in the error overlay', async ({ app, page }) => {
  await app.login(DEMO_USERS.customer);
  await app.open('/processes/analysis');
  await expect(page.getByTestId('filter-bar')).toBeVisible();
  await page.route('**/v2/User/settings', (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({ status: 400, json: { status: false, msg: 'boom', data: null } })
      : route.fallback(),
  );
  await page.getByTestId('date-prev').click();

  await expect(page.getByTestId('error-overlay-header')).toHaveText(text('en', 'network.header'));
  await expect(page.getByTestId('error-overlay-url')).toHaveText('/v2/User/settings');
  await expect(page.getByTestId('error-overlay-body')).toContainText('"dateSelector"');
  await page.getByTestId('error-overlay-close').click();
  await expect(page.getByTestId('error-overlay')).toHaveCount(0);
});

test('going offline shows the no-internet error, a refresh shows it again; only close clears it', async ({
  app,
  page,
  context,
}) => {
  await app.login(DEMO_USERS.partner);
  await app.open('/dashboards/dashboard');
  await expect(page.getByTestId('page-dashboard')).toBeVisible();

  await context.setOffline(true);
  const overlay = page.getByTestId('error-overlay');
  await expect(overlay).toHaveAttribute('data-error-type', 'NO_INTERNET');
  await expect(page.getByTestId('error-overlay-header')).toHaveText(
    text('en', 'no_internet.header'),
  );
  await page.getByTestId('error-overlay-close').click();
  await expect(overlay).toHaveCount(0);

  // A refresh while offline asks again and says why nothing came (it used to wait silently).
  await page.getByTestId('refresh-now').click();
  await expect(overlay).toHaveAttribute('data-error-type', 'NO_INTERNET');
  await expect(page.getByTestId('refresh-now')).not.toHaveAttribute('data-loading', 'true');
  await page.getByTestId('error-overlay-close').click();
  await expect(overlay).toHaveCount(0);

  // Offline, a page whose module was never loaded fails: again the no-internet error.
  await page.getByTestId('menu-entry-battery').click();
  await expect(overlay).toHaveAttribute('data-error-type', 'NO_INTERNET');
  // Back online, it stays until closed (spec section 4: "cleared on close").
  await context.setOffline(false);
  await expect(page.getByTestId('menu-entry-battery')).toBeVisible();
  await expect(overlay).toHaveAttribute('data-error-type', 'NO_INTERNET');
  await page.getByTestId('error-overlay-close').click();
  await expect(overlay).toHaveCount(0);
});

test('a page module that fails to load while online shows the chunk error', async ({
  app,
  page,
}) => {
  await app.login(DEMO_USERS.customer);
  await app.open('/dashboards/dashboard');
  await expect(page.getByTestId('page-dashboard')).toBeVisible();
  await page.route('**/assets/FailuresHistoryPage-*.js', (route) => route.abort('failed'));

  await app.open('/failures/history');
  const overlay = page.getByTestId('error-overlay');
  await expect(overlay).toHaveAttribute('data-error-type', 'CHUNK');
  await expect(page.getByTestId('error-overlay-header')).toHaveText(text('en', 'chunk.header'));
  await expect(page.getByTestId('error-overlay-reload')).toBeVisible();
  await page.getByTestId('error-overlay-close').click();
  await expect(overlay).toHaveCount(0);
});

test('a request that fails in transport shows a toast, not the error overlay', async ({
  app,
  page,
}) => {
  await app.login(DEMO_USERS.customer);
  await app.open('/failures/analysis');
  await expect(page.getByTestId('filter-bar')).toBeVisible();
  await page.route('**/v2/User/settings', (route) =>
    route.request().method() === 'PATCH' ? route.abort('connectionreset') : route.fallback(),
  );
  await page.getByTestId('date-prev').click();
  // Mantine renders one toast container per screen position; the toast sits top right.
  const toasts = page.locator('[data-testid="toast-container"][data-position="top-right"]');
  await expect(toasts.getByText(text('en', 'filters.saveFailed'))).toBeVisible();
  await expect(page.getByTestId('error-overlay')).toHaveCount(0);
});
