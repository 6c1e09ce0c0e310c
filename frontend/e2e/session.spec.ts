import { expect, expectRoute, SESSION_COOKIE, serverUrl, test } from './support/fixtures';
import { text } from './support/i18n';
import { DEMO_USERS } from './support/users';

/**
 * Spec section 4 and 8: an 'authentication failed' answer while logged in logs the user out
 * and sends them to login with error=session.
 */
test.describe.configure({ mode: 'parallel' });

async function expectSessionExpiredLogin(page: import('@playwright/test').Page): Promise<void> {
  await expectRoute(page, '/login?error=session');
  await expect(page.getByTestId('login-page')).toBeVisible();
  await expect(page.getByTestId('login-error')).toHaveText(text('en', 'login.errorSession'));
  await expect(page.getByTestId('shell')).toHaveCount(0);
  await expect(page.getByTestId('error-overlay')).toHaveCount(0);
}

/**
 * A request after the session is gone: a change of the period (saved at once). The page may
 * also still be loading its own data; then that request is the one that finds the session
 * gone and the app has left the page before the click: both are the behaviour under test.
 */
async function triggerRequest(page: import('@playwright/test').Page): Promise<void> {
  await page
    .getByTestId('date-prev')
    .click({ timeout: 5_000 })
    .catch(async (error: unknown) => {
      if ((await page.getByTestId('login-page').count()) === 0) {
        throw error;
      }
    });
}

test('the server ends the session: the next request leads to login?error=session', async ({
  app,
  page,
  playwright,
}) => {
  await app.login(DEMO_USERS.customer);
  await app.open('/productivity/analysis');
  await expect(page.getByTestId('filter-bar')).toBeVisible();

  // The same session, ended from elsewhere (another tab, an administrator, expiry).
  const cookies = await page.context().cookies(serverUrl());
  const cookieHeader = cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  const csrf = cookies.find((cookie) => cookie.name === 'fleetscope_csrf')?.value ?? '';
  const elsewhere = await playwright.request.newContext({
    baseURL: serverUrl(),
    extraHTTPHeaders: { Cookie: cookieHeader, 'X-CSRF-Token': csrf },
  });
  const ended = await elsewhere.post('/v2/User/logout');
  expect(ended.ok()).toBe(true);
  await elsewhere.dispose();

  await triggerRequest(page);
  await expectSessionExpiredLogin(page);

  // Logging in again works from there.
  await app.loginWithForm(DEMO_USERS.customer);
  await expectRoute(page, '/dashboards/dashboard');
  await expect(page.getByTestId('page-dashboard')).toBeVisible();
});

test('a lost session cookie leads to login?error=session on the next request', async ({
  app,
  page,
  context,
}) => {
  await app.login(DEMO_USERS.partner);
  await app.open('/dashboards/dashboard');
  await expect(page.getByTestId('filter-bar')).toBeVisible();
  await context.clearCookies({ name: SESSION_COOKIE });

  await triggerRequest(page);
  await expectSessionExpiredLogin(page);
  // Nothing of the old session is left in the app: pages need a login again.
  await app.open('/battery');
  await expectRoute(page, /^\/login\?from=/);
});
