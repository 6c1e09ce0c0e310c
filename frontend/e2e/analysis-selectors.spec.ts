import type { Locator, Page } from '@playwright/test';
import { expectChartWithData, shownData } from './support/charts';
import { berlinDay, machinePills, machineSelector, savedAfter, sites } from './support/filters';
import { expect, test } from './support/fixtures';
import { text } from './support/i18n';
import { E2E_USERS } from './support/users';

/**
 * Issue 4: on the analysis pages, changing the period, the vehicle selection or the shift
 * loads the data for the new choice, changes what the chart shows (read in its table view)
 * and is saved: a reload and GET /v2/User/settings give the same choice and the same data.
 * Starts on yesterday, a whole day of the backfilled history (global setup: `--days 2`).
 * The saved selectors of this file's user belong to it alone.
 */
const user = E2E_USERS.analysisSelectors;

// One after the other: the tests share the user's saved selectors.
test.describe.configure({ mode: 'default' });

const PAGES = [
  { route: '/productivity/analysis', api: 'Productivity', chart: 'timeInState' },
  { route: '/processes/analysis', api: 'Processes', chart: 'outcomes' },
] as const;

/** Whether `url` is the page's analytics call with (at least) these query parameters. */
function isAnalyticsCall(url: string, api: string, params: Record<string, string>): boolean {
  const parsed = new URL(url);
  return (
    parsed.pathname === `/v2/Analytics/${api}` &&
    Object.entries(params).every(([name, value]) => parsed.searchParams.get(name) === value)
  );
}

/**
 * Runs `action` (one selector change) and checks the three effects: the settings PATCH
 * succeeds, the analytics call carries `params` and answers, and the card then shows other
 * data than `before`, the same in two reads in a row (not a render on the way). Returns the
 * PATCH body and what the card shows now.
 */
async function changeSelector(
  page: Page,
  card: Locator,
  { api, params, before }: { api: string; params: Record<string, string>; before: string },
  action: () => Promise<void>,
): Promise<{ saved: unknown; shown: string }> {
  const loaded = page.waitForResponse((response) => isAnalyticsCall(response.url(), api, params));
  const saved = await savedAfter(page, action);
  expect((await loaded).ok()).toBe(true);
  let shown = before;
  await expect
    .poll(async () => {
      const earlier = shown;
      shown = await shownData(card);
      return shown !== before && shown === earlier;
    })
    .toBe(true);
  return { saved, shown };
}

for (const { route, api, chart } of PAGES) {
  test(`${route}: period, vehicles and shift change what is shown and are saved`, async ({
    app,
    page,
  }) => {
    const yesterday = berlinDay(-1);
    const dayBefore = berlinDay(-2);
    await app.login(user, { language: 'en' });
    await app.patchSettings({
      dateSelector: {
        mode: 'day',
        from: yesterday,
        to: yesterday,
        combined: false,
        workflowShift: 'all',
      },
      selectedMachines: [],
    });
    const vehicles = await app.vehicles();
    const vehicle = vehicles[0];
    const shift = (await sites(page)).find((site) => site.name === vehicle?.siteName)?.shifts[0];
    if (!vehicle || vehicles.length < 2 || !shift) {
      throw new Error('the demo customer needs several vehicles and a site with shifts');
    }

    await app.open(route);
    const card = await expectChartWithData(page, chart);
    const everything = await shownData(card);
    expect(everything).not.toMatch(/^\(/);

    // Vehicles: one instead of all.
    const oneVehicle = await changeSelector(
      page,
      card,
      { api, params: { vehicles: String(vehicle.id) }, before: everything },
      async () => {
        await machineSelector(page).click();
        await page.getByRole('option', { name: vehicle.name, exact: true }).click();
      },
    );
    await page.keyboard.press('Escape');
    expect(oneVehicle.saved).toMatchObject({ selectedMachines: [vehicle.id] });

    // Shift: one shift instead of all (a whole day has data outside any one shift).
    const oneShift = await changeSelector(
      page,
      card,
      { api, params: { shift: String(shift.id) }, before: oneVehicle.shown },
      async () => {
        await page.getByTestId('shift-selector').click();
        // Options read `Early (06:00–14:00)`.
        await page.getByRole('option', { name: new RegExp(`^${shift.name} \\(`) }).click();
      },
    );
    expect(oneShift.saved).toMatchObject({ dateSelector: { workflowShift: shift.id } });

    // Period: the day before.
    const dayEarlier = await changeSelector(
      page,
      card,
      { api, params: { from: dayBefore, to: dayBefore }, before: oneShift.shown },
      () => page.getByTestId('date-prev').click(),
    );
    expect(dayEarlier.saved).toMatchObject({
      dateSelector: { mode: 'day', from: dayBefore, to: dayBefore },
    });

    const saved = await app.settings();
    expect(saved.dateSelector).toMatchObject({
      mode: 'day',
      from: dayBefore,
      to: dayBefore,
      workflowShift: shift.id,
    });
    expect(saved.selectedMachines).toEqual([vehicle.id]);

    // A reload restores the choice and with it the same data.
    const reloaded = page.waitForResponse((response) =>
      isAnalyticsCall(response.url(), api, {
        from: dayBefore,
        to: dayBefore,
        vehicles: String(vehicle.id),
        shift: String(shift.id),
      }),
    );
    await page.reload();
    expect((await reloaded).ok()).toBe(true);
    await expect(page.getByTestId('date-picker')).toHaveAttribute('data-from', dayBefore);
    await expect(
      page.getByTestId('date-mode').getByRole('radio', { name: text('en', 'filters.mode.day') }),
    ).toBeChecked();
    await expect(machinePills(page)).toHaveText([vehicle.name]);
    await expect(page.getByTestId('shift-selector')).toHaveValue(new RegExp(`^${shift.name}`));
    await expect.poll(() => shownData(page.getByTestId(`chart-${chart}`))).toBe(dayEarlier.shown);
  });
}
