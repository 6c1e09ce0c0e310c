import { machinePills, machineSelector, savedAfter, sites } from './support/filters';
import { expect, serverUrl, test } from './support/fixtures';
import { text } from './support/i18n';
import { DEMO_USERS, E2E_USERS, SECOND_ORGANIZATION } from './support/users';

/**
 * Spec sections 4 and 7: saved settings fill the selectors of the page header at start-up
 * and every change is saved. The saved selectors of customer2 belong to this file.
 */
const user = DEMO_USERS.customer2;

// One after the other: the tests share customer2's saved selectors.
test.describe.configure({ mode: 'default' });

test('the saved settings fill the selectors of an analysis page', async ({ app, page }) => {
  await app.login(user);
  const vehicles = await app.vehicles();
  const [first, second] = vehicles;
  if (!first || !second) {
    throw new Error('the demo needs at least two vehicles');
  }
  const site = (await sites(page)).find((candidate) => candidate.name === first.siteName);
  const shift = site?.shifts[0];
  if (!shift) {
    throw new Error('the demo site of the first vehicle needs a shift');
  }
  await app.patchSettings({
    dateSelector: {
      mode: 'month',
      from: '2024-03-01',
      to: '2024-03-31',
      combined: true,
      workflowShift: shift.id,
    },
    selectedMachines: [first.id, second.id],
  });

  await app.open('/processes/workflows');
  await expect(page.getByTestId('page-processesWorkflows')).toBeVisible();
  await expect(page.getByTestId('date-mode').getByRole('radio', { name: 'Month' })).toBeChecked();
  await expect(page.getByTestId('date-picker')).toHaveAttribute('data-from', '2024-03-01');
  await expect(page.getByTestId('date-picker')).toHaveAttribute('data-to', '2024-03-31');
  await expect(page.getByTestId('date-picker')).toContainText('March 2024');
  await expect(page.getByRole('switch', { name: text('en', 'filters.combined') })).toBeChecked();
  await expect(machinePills(page)).toHaveText([first.name, second.name]);
  await expect(page.getByTestId('shift-selector')).toHaveValue(new RegExp(`^${shift.name}`));
});

test('a change in the page header is saved and still there after a reload', async ({
  app,
  page,
}) => {
  await app.login(user);
  await app.patchSettings({
    dateSelector: {
      mode: 'week',
      from: '2024-03-04',
      to: '2024-03-10',
      combined: false,
      workflowShift: 'all',
    },
    selectedMachines: [],
  });
  const [vehicle] = await app.vehicles();
  if (!vehicle) {
    throw new Error('the demo needs vehicles');
  }
  await app.open('/failures/overview');
  await expect(page.getByTestId('date-picker')).toHaveAttribute('data-from', '2024-03-04');

  // Period mode: week -> month.
  const modeBody = await savedAfter(page, () =>
    page.getByTestId('date-mode').getByText('Month', { exact: true }).click(),
  );
  expect(modeBody).toMatchObject({ dateSelector: { mode: 'month' } });

  // Combined view.
  const combinedBody = await savedAfter(page, () => page.getByTestId('combined-switch').click());
  expect(combinedBody).toEqual({ dateSelector: { combined: true } });

  // One machine.
  const machinesBody = await savedAfter(page, async () => {
    await machineSelector(page).click();
    await page.getByRole('option', { name: vehicle.name, exact: true }).click();
  });
  expect(machinesBody).toMatchObject({ selectedMachines: [vehicle.id] });
  await page.keyboard.press('Escape');

  const saved = await app.settings();
  expect(saved.dateSelector.mode).toBe('month');
  expect(saved.dateSelector.combined).toBe(true);
  expect(saved.selectedMachines).toEqual([vehicle.id]);

  await page.reload();
  await expect(page.getByTestId('date-mode').getByRole('radio', { name: 'Month' })).toBeChecked();
  await expect(page.getByTestId('date-picker')).toHaveAttribute(
    'data-from',
    saved.dateSelector.from,
  );
  await expect(page.getByRole('switch', { name: text('en', 'filters.combined') })).toBeChecked();
  await expect(machinePills(page)).toHaveText([vehicle.name]);

  // The selection applies to every analysis page.
  await app.open('/battery');
  await expect(page.getByTestId('page-battery')).toBeVisible();
  await expect(machinePills(page)).toHaveText([vehicle.name]);
});

test('the machine selector of a customer offers only its own vehicles', async ({
  app,
  page,
  playwright,
}) => {
  await app.login(DEMO_USERS.customer2);
  await app.patchSettings({ selectedMachines: [] });
  const own = await app.vehicles();
  expect(own.length).toBeGreaterThan(0);
  expect(new Set(own.map((vehicle) => vehicle.organizationName))).toEqual(
    new Set([SECOND_ORGANIZATION]),
  );
  // Every vehicle of the installation, as the support role sees it.
  const support = await playwright.request.newContext({ baseURL: serverUrl() });
  await support.post('/v2/User/login', {
    data: { email: DEMO_USERS.support.email, password: DEMO_USERS.support.password },
  });
  const all = (await (await support.get('/v2/Vehicles')).json()).data as typeof own;
  await support.dispose();
  const foreign = all.filter((vehicle) => vehicle.organizationName !== SECOND_ORGANIZATION);
  expect(foreign.length).toBeGreaterThan(0);

  await app.open('/productivity/analysis');
  await machineSelector(page).click();
  const options = page.getByRole('option');
  await expect(options).toHaveCount(own.length);
  await expect(options).toHaveText(own.map((vehicle) => vehicle.name).sort());
  for (const vehicle of foreign) {
    await expect(page.getByRole('option', { name: vehicle.name, exact: true })).toHaveCount(0);
  }
});

test('a user without vehicles gets a clear empty state on the analysis pages', async ({
  app,
  page,
}) => {
  await app.login(E2E_USERS.noVehicles);
  for (const route of ['/productivity/analysis', '/processes', '/failures/history', '/battery']) {
    await app.open(route);
    const empty = page.getByTestId('no-vehicles');
    await expect(empty).toBeVisible();
    await expect(empty).toContainText(text('en', 'state.noVehiclesTitle'));
    await expect(empty).toContainText(text('en', 'state.noVehiclesBody'));
    await expect(page.getByTestId('filter-bar')).toHaveCount(0);
  }
  // The navigation stays, so the user can go elsewhere.
  await expect(page.getByTestId('nav-side')).toBeVisible();
});

test('a user who sees several sites can open an analysis page and pick any shift', async ({
  app,
  page,
}) => {
  // Every demo site has the shifts early/late/night: each shift id is offered once and
  // means that shift at every site.
  await app.login(DEMO_USERS.support);
  await app.patchSettings({ selectedMachines: [] });
  const allSites = await sites(page);
  expect(allSites.length).toBeGreaterThan(1);

  await app.open('/productivity/analysis');
  await expect(page.getByTestId('filter-bar')).toBeVisible();
  await page.getByTestId('shift-selector').click();
  const shiftIds = new Set(allSites.flatMap((site) => site.shifts.map((shift) => shift.id)));
  await expect(page.getByRole('option')).toHaveCount(shiftIds.size + 1);
});
