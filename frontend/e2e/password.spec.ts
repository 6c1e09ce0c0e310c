import type { APIRequest, APIRequestContext, APIResponse } from '@playwright/test';
import { expect, expectRoute, serverUrl, test } from './support/fixtures';
import { text } from './support/i18n';
import { DEMO_USERS, FIRST_ORGANIZATION, type TestUser } from './support/users';

/**
 * A user replaces the temporary password an administrator gave them: the account menu points
 * it out (a dot and a note, nothing that blocks), the dialog refuses a wrong current password
 * at the form, the change ends the user's other sessions, and afterwards only the new password
 * logs in. The user carries this run's suffix, so a reused server (E2E_BASE_URL) does not
 * collide with an earlier run.
 */
const RUN = Date.now().toString(36);
const EMAIL = `password-${RUN}@e2e.fleetscope`;
const NEW_PASSWORD = `own-password-${RUN}`;

async function dataOf<T>(response: APIResponse, what: string): Promise<T> {
  const body = (await response.json()) as { status: boolean; data: T };
  if (!response.ok() || !body.status) {
    throw new Error(`${what} failed: HTTP ${response.status()} ${JSON.stringify(body)}`);
  }
  return body.data;
}

/** A session of its own (not the browser's), logged in through the API. */
async function apiSession(request: APIRequest, user: { email: string; password: string }) {
  const context = await request.newContext({ baseURL: serverUrl() });
  await dataOf(
    await context.post('/v2/User/login', { data: { email: user.email, password: user.password } }),
    `login of ${user.email}`,
  );
  return context;
}

async function csrfHeader(context: APIRequestContext): Promise<Record<string, string>> {
  const { cookies } = await context.storageState();
  return {
    'X-CSRF-Token': cookies.find((cookie) => cookie.name === 'fleetscope_csrf')?.value ?? '',
  };
}

/** The superuser creates a customer through the Admin API; the answer's temporary password. */
async function createCustomer(request: APIRequest, email: string): Promise<string> {
  const admin = await apiSession(request, DEMO_USERS.superuser);
  try {
    const organizations = await dataOf<Array<{ id: number; name: string }>>(
      await admin.get('/v2/Admin/Organizations'),
      'GET /v2/Admin/Organizations',
    );
    const organization = organizations.find(({ name }) => name === FIRST_ORGANIZATION);
    expect(organization, FIRST_ORGANIZATION).toBeDefined();
    const created = await dataOf<{ temporaryPassword: string }>(
      await admin.post('/v2/Admin/Users', {
        data: { email, role: 'customer', organizationId: organization?.id, language: 'en' },
        headers: await csrfHeader(admin),
      }),
      'POST /v2/Admin/Users',
    );
    return created.temporaryPassword;
  } finally {
    await admin.dispose();
  }
}

test('a new user replaces the temporary password through the account menu', async ({
  app,
  page,
  playwright,
}) => {
  test.setTimeout(180_000);
  const temporary: TestUser = {
    email: EMAIL,
    password: await createCustomer(playwright.request, EMAIL),
    role: 'customer',
  };
  const changed: TestUser = { ...temporary, password: NEW_PASSWORD };
  const accountMenu = page.getByTestId('account-menu');
  const indicator = page.getByTestId('password-temporary-indicator');
  const dialog = page.getByRole('dialog', { name: text('en', 'user.password.title') });
  // Another session of the same user (another browser): it ends with the change.
  const elsewhere = await apiSession(playwright.request, temporary);

  await test.step('logged in with the temporary password: a dot and a note, nothing blocks', async () => {
    await app.open('/login');
    await app.loginWithForm(temporary);
    await expectRoute(page, '/dashboards/dashboard');
    // A new user is first offered the onboarding; skipping it is all it takes.
    await page.getByTestId('onboarding-skip').click();
    await expect(page.getByTestId('onboarding-overlay')).toHaveCount(0);
    await expect(accountMenu).toHaveAccessibleName(text('en', 'user.password.temporaryAccount'));
    await expect(indicator).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await accountMenu.click();
    await expect(page.getByTestId('password-temporary-note')).toHaveText(
      text('en', 'user.password.temporary'),
    );
    await page.getByTestId('change-password').click();
    await expect(dialog).toBeVisible();
  });

  await test.step('a wrong current password is refused at the form, without the error overlay', async () => {
    await dialog.getByTestId('password-current').fill('not the password');
    await dialog.getByTestId('password-new').fill(NEW_PASSWORD);
    await dialog.getByTestId('password-repeat').fill(NEW_PASSWORD);
    await dialog.getByTestId('password-submit').click();
    await expect(dialog.getByTestId('password-error')).toContainText(
      `${text('en', 'user.password.current')}:`,
    );
    await expect(dialog.getByTestId('password-current')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('error-overlay')).toHaveCount(0);
  });

  await test.step('the right one: changed, other sessions ended, the dot is gone', async () => {
    await dialog.getByTestId('password-current').fill(temporary.password);
    await dialog.getByTestId('password-submit').click();
    await expect(
      page.locator('.mantine-Notification-root').filter({
        hasText: text('en', 'user.password.changed'),
      }),
    ).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(indicator).toHaveCount(0);
    await expect(accountMenu).toHaveAccessibleName(text('en', 'user.account'));
    // This browser stays signed in; the other session is gone.
    const me = await dataOf<{ passwordTemporary: boolean }>(
      await page.request.get('/v2/User/me'),
      'GET /v2/User/me',
    );
    expect(me.passwordTemporary).toBe(false);
    expect((await elsewhere.get('/v2/User/me')).status()).toBe(401);
    await elsewhere.dispose();
  });

  await test.step('after logging out only the new password logs in', async () => {
    await page.getByTestId('menu-entry-logout').click();
    await expectRoute(page, '/login');
    await app.loginWithForm(temporary);
    await expect(page.getByTestId('login-error')).toHaveAttribute(
      'data-message',
      'login.errorCredentials',
    );
    await app.loginWithForm(changed);
    await expectRoute(page, '/dashboards/dashboard');
    await expect(accountMenu).toHaveAccessibleName(text('en', 'user.account'));
    await expect(indicator).toHaveCount(0);
    await accountMenu.click();
    await expect(page.getByTestId('change-password')).toBeVisible();
    await expect(page.getByTestId('password-temporary-note')).toHaveCount(0);
  });
});
