import { expect, expectRoute, test } from './support/fixtures';
import { text } from './support/i18n';
import { DEMO_USERS } from './support/users';

/** Spec section 2: hash routes, their redirects and the login check. */
test.describe.configure({ mode: 'parallel' });

const PAGES: Array<{ route: string; testId: string }> = [
  { route: '/dashboards/dashboard', testId: 'page-dashboard' },
  { route: '/dashboards/statusboard', testId: 'page-statusboard' },
  { route: '/productivity/analysis', testId: 'page-productivityAnalysis' },
  { route: '/productivity/history', testId: 'page-productivityHistory' },
  { route: '/processes/analysis', testId: 'page-processesAnalysis' },
  { route: '/processes/workflows', testId: 'page-processesWorkflows' },
  { route: '/processes/actions', testId: 'page-processesActions' },
  { route: '/failures/analysis', testId: 'page-failuresAnalysis' },
  { route: '/failures/overview', testId: 'page-failuresOverview' },
  { route: '/failures/visualization', testId: 'page-failuresVisualization' },
  { route: '/failures/history', testId: 'page-failuresHistory' },
  { route: '/battery', testId: 'page-battery' },
];

const REDIRECTS: Array<{ from: string; to: string }> = [
  { from: '/', to: '/dashboards/dashboard' },
  { from: '/dashboards', to: '/dashboards/dashboard' },
  { from: '/productivity', to: '/productivity/analysis' },
  { from: '/processes', to: '/processes/analysis' },
  { from: '/failures', to: '/failures/analysis' },
  { from: '/no/such/page', to: '/dashboards/dashboard' },
  { from: '/productivity/no-such-sub-page', to: '/dashboards/dashboard' },
];

test('every page of the menu has its route with its own page', async ({ app, page }) => {
  test.slow(); // twelve separately loaded pages, some with charts
  await app.login(DEMO_USERS.customer);
  for (const { route, testId } of PAGES) {
    await app.open(route);
    await expect(page.getByTestId(testId)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('page-header')).toBeVisible();
    await expectRoute(page, route);
  }
});

test('redirects: dashboards, area roots and unknown paths', async ({ app, page }) => {
  await app.login(DEMO_USERS.partner);
  for (const { from, to } of REDIRECTS) {
    await app.open(from);
    await expectRoute(page, to);
    const topic = PAGES.find((candidate) => candidate.route === to)?.testId ?? '';
    await expect(page.getByTestId(topic)).toBeVisible();
  }
});

test('logged out, a page sends to login and login returns to that page', async ({ app, page }) => {
  await app.open('/failures/overview?displayMode=false');
  await expect(page.getByTestId('login-page')).toBeVisible();
  await expectRoute(page, /^\/login\?from=/);
  await expect(page.getByTestId('login-error')).toHaveCount(0);
  await expect(page.getByTestId('shell')).toHaveCount(0);

  await app.loginWithForm(DEMO_USERS.partner);
  await expectRoute(page, '/failures/overview?displayMode=false');
  await expect(page.getByTestId('page-failuresOverview')).toBeVisible();
});

test('logged out, the dashboards redirect also goes through login', async ({ app, page }) => {
  await app.open('/dashboards');
  await expect(page.getByTestId('login-page')).toBeVisible();
  await app.loginWithForm(DEMO_USERS.customer);
  await expectRoute(page, '/dashboards/dashboard');
  await expect(page.getByTestId('page-dashboard')).toBeVisible();
});

test('wrong credentials keep the user on the login page with a message', async ({ app, page }) => {
  await app.open('/login');
  await app.loginWithForm({ ...DEMO_USERS.customer, password: 'not-the-password' });
  await expect(page.getByTestId('login-error')).toHaveText(text('en', 'login.errorCredentials'));
  await expectRoute(page, '/login');
});

test('a logged-in user opening the login page goes to the app', async ({ app, page }) => {
  await app.login(DEMO_USERS.customer);
  await app.open('/login');
  await expectRoute(page, '/dashboards/dashboard');
  await expect(page.getByTestId('page-dashboard')).toBeVisible();
});

test('logout from the menu ends the session: pages need a login again', async ({ app, page }) => {
  await app.login(DEMO_USERS.customer);
  await app.open('/processes/actions');
  await expect(page.getByTestId('page-processesActions')).toBeVisible();
  await page.getByTestId('menu-entry-logout').click();
  await expectRoute(page, '/login');
  await expect(page.getByTestId('login-page')).toBeVisible();

  const me = await page.request.get('/v2/User/me');
  expect(me.status()).toBe(401);
  expect((await me.json()).msg).toBe('authentication failed');

  await app.open('/processes/actions');
  await expectRoute(page, /^\/login\?from=/);
  await expect(page.getByTestId('login-form')).toBeVisible();
});
