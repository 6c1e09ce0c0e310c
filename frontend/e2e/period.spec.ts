import type { Page, Request } from '@playwright/test';
import { berlinDay, machinePills, savedAfter, sites } from './support/filters';
import { expect, test } from './support/fixtures';
import { text } from './support/i18n';
import { E2E_USERS } from './support/users';

/**
 * Issue 23: the period selector of product.md section 4 in Chromium against the real
 * server. A link carries period, vehicles, shift and combined (the last 24 hours: a rolling
 * period the API gets as hours); a relative range saved today
 * is still relative tomorrow (the browser's clock moved with `page.clock`); refresh clears
 * the request cache and asks the server again; display mode refreshes by itself.
 * The saved selectors of this file's user belong to it alone.
 */
const user = E2E_USERS.period;

test.describe.configure({ mode: 'default' });

const DAY_MS = 24 * 60 * 60 * 1000;

function analyticsCall(request: Request, api: string): URLSearchParams | null {
  const url = new URL(request.url());
  return url.pathname === `/v2/Analytics/${api}` ? url.searchParams : null;
}

/** Every analytics call of `api` the page makes from now on (query parameters of each). */
function recordCalls(page: Page, api: string): URLSearchParams[] {
  const calls: URLSearchParams[] = [];
  page.on('request', (request) => {
    const params = analyticsCall(request, api);
    if (params) {
      calls.push(params);
    }
  });
  return calls;
}

/** The user's own saved view: the last seven days before today, all machines and shifts. */
function ownView() {
  return {
    dateSelector: {
      mode: 'custom',
      from: berlinDay(-7),
      to: berlinDay(-1),
      combined: false,
      workflowShift: 'all',
    },
    selectedMachines: [],
  };
}

test('a link with period, vehicles, shift and combined opens that view, saved settings untouched', async ({
  app,
  page,
}) => {
  await app.login(user, { language: 'en' });
  await app.patchSettings(ownView());
  const before = await app.settings();
  const vehicles = await app.vehicles();
  const vehicle = vehicles[0];
  const shift = (await sites(page)).find((site) => site.name === vehicle?.siteName)?.shifts[0];
  if (!vehicle || vehicles.length < 2 || !shift) {
    throw new Error('the demo customer needs several vehicles and a site with shifts');
  }
  const yesterday = berlinDay(-1);
  const link =
    `/productivity/analysis?mode=day&from=${yesterday}&to=${yesterday}` +
    `&vehicles=${vehicle.id}&shift=${shift.id}&combined=true`;

  const call = page.waitForRequest((request) => {
    const params = analyticsCall(request, 'Productivity');
    return params?.get('from') === yesterday && params.get('shift') === String(shift.id);
  });
  await app.open(link);
  const params = analyticsCall(await call, 'Productivity');
  expect(Object.fromEntries(params ?? [])).toMatchObject({
    from: yesterday,
    to: yesterday,
    vehicles: String(vehicle.id),
    shift: String(shift.id),
    combined: 'true',
  });
  await expect(page.getByTestId('date-picker')).toHaveAttribute('data-from', yesterday);
  await expect(page.getByTestId('date-picker')).toHaveAttribute('data-to', yesterday);
  await expect(machinePills(page)).toHaveText([vehicle.name]);
  await expect(page.getByTestId('shift-selector')).toHaveValue(new RegExp(`^${shift.name}`));
  await expect(page.getByTestId('combined-switch')).toBeChecked();
  // The link is the colleague's view, not a change of the user's own saved settings.
  expect(await app.settings()).toEqual(before);

  // The menu keeps the view from page to page.
  const history = page.waitForRequest(
    (request) => analyticsCall(request, 'ProductivityHistory')?.get('from') === yesterday,
  );
  await page.getByTestId('menu-entry-productivity').hover();
  await page.getByTestId('menu-entry-productivity-history').click();
  expect(analyticsCall(await history, 'ProductivityHistory')?.get('vehicles')).toBe(
    String(vehicle.id),
  );
});

test('a link naming a machine the user cannot see leaves it out and says so', async ({
  app,
  page,
}) => {
  await app.login(user, { language: 'de' });
  await app.patchSettings(ownView());
  const vehicle = (await app.vehicles())[0];
  if (!vehicle) {
    throw new Error('the demo customer needs a vehicle');
  }
  // Another tenant's id and an unknown one look alike to the browser: neither is in its list.
  const unseen = 999_999_999;
  const call = page.waitForRequest((request) => analyticsCall(request, 'Productivity') !== null);
  await app.open(
    `/productivity/analysis?mode=day&from=${berlinDay(-1)}&to=${berlinDay(-1)}` +
      `&vehicles=${unseen},${vehicle.id}&shift=all&combined=false`,
  );
  expect(analyticsCall(await call, 'Productivity')?.get('vehicles')).toBe(String(vehicle.id));
  await expect(
    page
      .locator('.mantine-Notification-root')
      .filter({ hasText: text('de', 'filters.linkVehiclesHidden_one') }),
  ).toBeVisible();
  await expect(machinePills(page)).toHaveText([vehicle.name]);
  await expect(page).toHaveURL(new RegExp(`[?&]vehicles=${vehicle.id}(&|$)`));
});

test('a link with a period that cannot be read says so and shows the saved period', async ({
  app,
  page,
}) => {
  await app.login(user, { language: 'en' });
  await app.patchSettings(ownView());
  await app.open(
    `/productivity/analysis?mode=custom&from=${berlinDay(-1)}&to=${berlinDay(-3)}` +
      '&vehicles=all&shift=all&combined=false',
  );
  await expect(
    page
      .locator('.mantine-Notification-root')
      .filter({ hasText: text('en', 'filters.linkUnreadable', { params: 'from, to' }) }),
  ).toBeVisible();
  await expect(page.getByTestId('date-picker')).toHaveAttribute('data-from', berlinDay(-7));
  await expect(page).toHaveURL(new RegExp(`[?&]from=${berlinDay(-7)}&to=${berlinDay(-1)}(&|$)`));
});

test('a link with the last 24 hours opens that rolling period, saved settings untouched', async ({
  app,
  page,
}) => {
  await app.login(user, { language: 'en' });
  await app.patchSettings(ownView());
  const before = await app.settings();
  const call = page.waitForRequest(
    (request) => analyticsCall(request, 'Productivity')?.get('hours') === '24',
  );
  await app.open('/productivity/analysis?range=last24Hours&vehicles=all&shift=all&combined=false');
  // The rolling period itself, not yesterday and today as days.
  const params = analyticsCall(await call, 'Productivity');
  expect(params?.has('from') || params?.has('to')).toBe(false);
  await expect(page.getByTestId('date-relative')).toHaveAttribute('data-range', 'last24Hours');
  await expect(page.getByTestId('date-picker')).toHaveAttribute('data-from', berlinDay(-1));
  await expect(page.getByTestId('date-picker')).toHaveAttribute('data-to', berlinDay(0));
  expect(await app.settings()).toEqual(before);
});

test('a relative range saved today is still relative tomorrow', async ({ app, page }) => {
  await app.login(user, { language: 'en' });
  await app.patchSettings(ownView());
  const start = Date.now();
  await page.clock.install({ time: start });
  await app.open('/productivity/analysis');
  await expect(page.getByTestId('date-picker')).toHaveAttribute('data-from', berlinDay(-7));

  const saved = await savedAfter(page, async () => {
    await page.getByTestId('date-relative').click();
    await page.getByTestId('date-relative-yesterday').click();
  });
  expect(saved).toMatchObject({ dateSelector: { relativeRange: 'yesterday' } });
  await expect(page.getByTestId('date-picker')).toHaveAttribute('data-from', berlinDay(-1));
  await expect(page.getByTestId('date-relative')).toHaveAttribute('data-range', 'yesterday');
  expect((await app.settings()).dateSelector).toMatchObject({ relativeRange: 'yesterday' });

  // Tomorrow, opened without a link: "yesterday" is today's date now.
  await page.clock.setSystemTime(start + DAY_MS);
  const tomorrowCall = page.waitForRequest(
    (request) => analyticsCall(request, 'Productivity')?.get('from') === berlinDay(0),
  );
  await page.goto('about:blank');
  await app.open('/productivity/analysis');
  expect(analyticsCall(await tomorrowCall, 'Productivity')?.get('to')).toBe(berlinDay(0));
  await expect(page.getByTestId('date-picker')).toHaveAttribute('data-from', berlinDay(0));
  await expect(page.getByTestId('date-relative')).toHaveAttribute('data-range', 'yesterday');
});

test('refresh clears the request cache and asks the server again', async ({ app, page }) => {
  await app.login(user, { language: 'en' });
  await app.patchSettings(ownView());
  const calls = recordCalls(page, 'Productivity');
  await app.open('/productivity/analysis');
  await expect.poll(() => calls.length).toBe(1);
  await expect(page.getByTestId('chart-timeInState')).toHaveAttribute('data-status', 'ready');

  // Within the cache's 3 minutes, a second visit is answered from the cache.
  await page.getByTestId('menu-entry-productivity').hover();
  await page.getByTestId('menu-entry-productivity-history').click();
  await expect(page.getByTestId('page-productivityHistory')).toBeVisible();
  await page.goBack();
  await expect(page.getByTestId('chart-timeInState')).toHaveAttribute('data-status', 'ready');
  expect(calls).toHaveLength(1);

  const refreshed = page.waitForResponse(
    (response) => analyticsCall(response.request(), 'Productivity') !== null,
  );
  await page.getByTestId('refresh-now').click();
  expect((await refreshed).ok()).toBe(true);
  expect(calls).toHaveLength(2);
  expect(calls[1]?.toString()).toBe(calls[0]?.toString());
  await expect(page.getByTestId('refresh-now')).not.toHaveAttribute('data-refreshed-at', '');

  // The link button writes the view into the address (the link a colleague gets).
  await page.getByTestId('share-view').click();
  await expect
    .poll(() => new URL(page.url()).hash)
    .toBe(
      `#/productivity/analysis?mode=custom&from=${berlinDay(-7)}&to=${berlinDay(-1)}` +
        '&vehicles=all&shift=all&combined=false',
    );
});

test('display mode refreshes the dashboard by itself, every minute', async ({ app, page }) => {
  await app.login(user, { language: 'en' });
  await app.patchSettings(ownView());
  await page.clock.install();
  const calls = recordCalls(page, 'Dashboard');
  // The first answer is in and shown before the clock jumps: a refresh while it is still on
  // its way or being read joins that request (TanStack Query does not cancel a first fetch)
  // instead of sending a second one.
  const first = page.waitForResponse(
    (response) => analyticsCall(response.request(), 'Dashboard') !== null,
  );
  await app.open('/dashboards/dashboard?displayMode=true');
  await expect(page.getByTestId('shell')).toHaveAttribute('data-navigation', 'hidden');
  await first;
  await expect(page.getByTestId('kpi-value').first()).toHaveText(/\d/);
  expect(calls).toHaveLength(1);
  await expect(page.getByTestId('auto-refresh')).toHaveAttribute('data-minutes', '1');

  const next = page.waitForRequest((request) => analyticsCall(request, 'Dashboard') !== null);
  await page.clock.fastForward('01:01');
  await next;
  expect(calls).toHaveLength(2);
  const again = page.waitForRequest((request) => analyticsCall(request, 'Dashboard') !== null);
  await page.clock.fastForward('01:01');
  await again;
  expect(calls).toHaveLength(3);
});
