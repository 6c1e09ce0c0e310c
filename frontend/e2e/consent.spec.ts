import type { Page, Request } from '@playwright/test';
import { expect, expectRoute, serverUrl, test } from './support/fixtures';
import { text } from './support/i18n';
import { DEMO_USERS } from './support/users';

/**
 * Spec section 7: the page-view event (role, page path, page_view) is sent only when the
 * statistics cookie is set (and in a production build, which is what the tests serve).
 * The cookie-consent control sets it.
 */
test.describe.configure({ mode: 'parallel' });
test.use({ consentAnswered: false });

function recordPageViews(page: Page): Request[] {
  const sent: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/v2/Events') {
      sent.push(request);
    }
  });
  return sent;
}

test('accepting statistics sets the cookie; from then on page views are sent', async ({
  app,
  page,
  context,
}) => {
  const sent = recordPageViews(page);
  await app.login(DEMO_USERS.partner);
  await app.open('/dashboards/dashboard');
  const banner = page.getByTestId('consent-banner');
  await expect(banner).toContainText(text('en', 'consent.text'));
  await expect(page.getByTestId('page-dashboard')).toBeVisible();

  await page.getByTestId('consent-accept').click();
  await expect(banner).toHaveCount(0);
  const cookies = await context.cookies(serverUrl());
  expect(cookies.map((cookie) => cookie.name)).toContain('fleetscope_statistics');
  expect(sent).toHaveLength(0);

  const event = page.waitForRequest(
    (request) => request.method() === 'POST' && request.url().endsWith('/v2/Events'),
  );
  await page.getByTestId('menu-entry-battery').click();
  await expectRoute(page, '/battery');
  expect((await event).postDataJSON()).toEqual({
    event: 'page_view',
    path: '/battery',
    role: 'partner',
  });
});

test('declining statistics sends no page views and the banner stays answered', async ({
  app,
  page,
}) => {
  const sent = recordPageViews(page);
  await app.login(DEMO_USERS.customer);
  await app.open('/dashboards/dashboard');
  await page.getByTestId('consent-decline').click();
  await expect(page.getByTestId('consent-banner')).toHaveCount(0);

  await app.open('/battery');
  await expect(page.getByTestId('page-battery')).toBeVisible();
  await app.open('/failures/overview');
  await expect(page.getByTestId('page-failuresOverview')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('page-failuresOverview')).toBeVisible();
  await expect(page.getByTestId('consent-banner')).toHaveCount(0);
  expect(sent).toHaveLength(0);
});
