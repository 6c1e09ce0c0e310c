import type { Locator, Page } from '@playwright/test';
import { finishedOrdersNdjson, ingestNdjson } from './support/admin';
import { berlinDay, berlinDayAt } from './support/filters';
import { App, expect, expectRoute, serverUrl, test } from './support/fixtures';
import { text } from './support/i18n';
import { DEMO_USERS } from './support/users';

/**
 * Issue 25, the Administration app end to end: a superuser sets up an organization, a
 * site with a night shift and a workflow rule checked in the live preview, a user and an
 * API token; a small NDJSON batch goes to POST /v2/Ingest/vda5050 with that token; the new
 * user sees the vehicle and its workflow; the superuser changes the rule, follows the
 * re-derivation to its end and the workflow list follows; the audit log shows each step.
 * A customer who types an admin URL lands on the dashboard.
 *
 * Everything it creates carries this run's suffix, so a reused server (E2E_BASE_URL) does
 * not collide with an earlier run.
 */
test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36);
const ORGANIZATION = `E2E Admin ${RUN}`;
const SITE = `Night Hall ${RUN}`;
const INTERFACE = `e2eadmin${RUN}`;
const USER_EMAIL = `admin-${RUN}@e2e.fleetscope`;
const TOKEN_NAME = `line feeder ${RUN}`;
const VEHICLE = {
  interfaceName: INTERFACE,
  manufacturer: 'E2EAdmin',
  serialNumber: `NIGHT-${RUN}`,
};
const ORDER_IDS = ['NIGHT-TRANSPORT-0001', 'NIGHT-TRANSPORT-0002'];
const FIRST_RULE = '^(?P<workflow>[A-Z]+)-';
const SECOND_RULE = '^(?P<workflow>[A-Z]+-[A-Z]+)-\\d+$';

/** Chooses `option` in the Mantine select whose input has `testId` (typing to search). */
async function choose(page: Page, input: Locator, option: string, search?: string) {
  await input.click();
  if (search !== undefined) {
    await input.fill(search);
  }
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(input).toHaveValue(option);
}

/** The toast with `message` (success or the server's message). */
function toast(page: Page, message: string | RegExp): Locator {
  return page.locator('.mantine-Notification-root').filter({ hasText: message });
}

/** What the first part of the test hands to the later ones. */
const state = { siteId: '', token: '', password: '' };

test('a customer who types an admin URL lands on the dashboard', async ({ app, page }) => {
  await app.login(DEMO_USERS.customer);
  await app.open('/admin/users');
  await expectRoute(page, '/dashboards/dashboard');
  await page.getByTestId('app-switcher').click();
  const dropdown = page.getByTestId('app-switcher-dropdown');
  await expect(dropdown.getByTestId('app-analytics')).toBeVisible();
  await expect(dropdown.getByTestId('app-administration')).toHaveCount(0);
});

test('the superuser sets up an organization, a site with shifts and rules, a user and a token', async ({
  app,
  page,
}) => {
  test.setTimeout(180_000);
  await app.login(DEMO_USERS.superuser, { language: 'en' });
  await app.open('/dashboards/dashboard');

  await test.step('the app switcher opens the Administration app', async () => {
    await page.getByTestId('app-switcher').click();
    await page.getByTestId('app-switcher-dropdown').getByTestId('app-administration').click();
    await expectRoute(page, '/admin/organizations');
    await expect(page.getByTestId('page-admin-organizations')).toBeVisible();
    await expect(page.getByTestId('app-switcher')).toHaveAttribute('data-app', 'administration');
    const nav = page.getByTestId('nav-side');
    for (const id of [
      'organizations',
      'sites',
      'vehicles',
      'users',
      'tokens',
      'deadLetters',
      'jobs',
      'audit',
    ]) {
      await expect(nav.getByTestId(`menu-entry-admin-${id}`)).toHaveAccessibleName(
        text('en', `admin.menu.${id}`),
      );
    }
    await nav.getByTestId('menu-entry-help').click();
    await expect(page.getByTestId('help-overlay')).toHaveAttribute(
      'data-help-topic',
      'admin-organizations',
    );
    await expect(page.getByTestId('help-overlay')).toContainText(
      text('en', 'admin.help.organizations.summary'),
    );
    await page.getByTestId('help-close').click();
  });

  await test.step('organization', async () => {
    await page.getByTestId('organization-name').fill(ORGANIZATION);
    await page.getByTestId('organization-create').click();
    await expect(
      toast(page, text('en', 'admin.organizations.created', { name: ORGANIZATION })),
    ).toBeVisible();
    await expect(page.getByTestId(`organization-row-${ORGANIZATION}`)).toBeVisible();
    // A second one of the same name is refused: the server's message at the field, no overlay.
    await page.getByTestId('organization-name').fill(ORGANIZATION);
    await page.getByTestId('organization-create').click();
    await expect(page.getByTestId('organization-name')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('error-overlay')).toHaveCount(0);
  });

  await test.step('site', async () => {
    await page.getByTestId('nav-side').getByTestId('menu-entry-admin-sites').click();
    await expectRoute(page, '/admin/sites');
    await choose(page, page.getByTestId('site-organization'), ORGANIZATION);
    await page.getByTestId('site-name').fill(SITE);
    await choose(page, page.getByTestId('site-time-zone'), 'Europe/Vienna', 'Vienna');
    await page.getByTestId('site-mqtt-interface').fill(INTERFACE);
    await page.getByTestId('site-create').click();
    await expectRoute(page, /^\/admin\/sites\/\d+$/);
    state.siteId = app.route().split('/').pop() ?? '';
    await expect(page.getByTestId('page-title')).toHaveText(SITE);
    await expect(page.getByTestId('site-edit-time-zone')).toHaveValue('Europe/Vienna');
  });

  await test.step('shift calendar with a night shift; an overlap is refused on the field', async () => {
    const editor = page.getByTestId('shift-editor');
    // The default calendar: early, late and night; keep only the night shift.
    const names = await editor
      .getByTestId('shift-name')
      .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
    expect(names).toHaveLength(3);
    for (const name of names.filter((name) => !/night/i.test(name))) {
      await editor
        .getByRole('button', { name: text('en', 'admin.shifts.removeNamed', { name }) })
        .click();
    }
    const night = editor.getByTestId('shift-0');
    await expect(night.getByTestId('shift-overnight')).toHaveText(
      text('en', 'admin.shifts.crossesMidnight'),
    );
    await expect(night.getByTestId('shift-summary')).toContainText('22:00–06:00 (+1)');

    await editor.getByTestId('shift-add').click();
    const day = editor.getByTestId('shift-1');
    await day.getByTestId('shift-name').fill('Day');
    // Typed as people type it ("6"), written "06:00" once the field is left.
    await day.getByTestId('shift-start').fill('6');
    await day.getByTestId('shift-start').blur();
    await expect(day.getByTestId('shift-start')).toHaveValue('06:00');
    await day.getByTestId('shift-end').fill('23:00');
    await day.getByText('Sat', { exact: true }).click();
    await day.getByText('Sun', { exact: true }).click();
    await expect(day.getByTestId('shift-summary')).toContainText('06:00–23:00 · every day');
    await page.getByTestId('shifts-save').click();
    // The server names both shifts; the message stands at the shifts it names.
    const error = page.getByTestId('shifts-error');
    await expect(error).toContainText('Day');
    await expect(error).toContainText(names.find((name) => /night/i.test(name)) ?? 'Night');
    await expect(day.getByTestId('shift-name')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('error-overlay')).toHaveCount(0);

    await day.getByTestId('shift-end').fill('22:00');
    await page.getByTestId('shifts-save').click();
    await expect(toast(page, text('en', 'admin.sites.saved.shifts', { name: SITE }))).toBeVisible();
    await expect(error).toHaveCount(0);
  });

  await test.step('a workflow rule checked in the live preview', async () => {
    const rules = page.getByTestId('workflow-rules');
    await rules.getByTestId('rule-add').click();
    const pattern = rules.getByTestId('rule-0').getByTestId('rule-pattern');
    await pattern.fill('^(?P<workflow>[A-Z+');
    // Invalid while typing: the preview names the problem at the rule; saving is refused.
    await expect(rules.getByTestId('rule-0').getByTestId('rule-matched')).toHaveText(
      text('en', 'admin.rules.invalid'),
    );
    await expect(pattern).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('rules-save')).toBeDisabled();
    await pattern.fill(FIRST_RULE);
    await expect(rules.getByTestId('rule-0').getByTestId('rule-matched')).toHaveText('0 matches');
    await expect(page.getByTestId('preview-no-orders')).toBeVisible();
    await page.getByTestId('rules-save').click();
    await expect(toast(page, text('en', 'admin.sites.saved.rules', { name: SITE }))).toBeVisible();
  });

  await test.step('a change another administrator saved meanwhile is refused, not undone', async () => {
    const url = `/v2/Admin/Sites/${state.siteId}`;
    const { shifts } = await app.read<{ shifts: Array<{ name: string }> }>(url);
    const renamed = shifts.map((shift, index) =>
      index === 0 ? { ...shift, name: 'Night (other admin)' } : shift,
    );
    await app.patch(url, { shifts: renamed }); // another tab, this page not reloaded
    const rules = page.getByTestId('workflow-rules');
    await rules.getByTestId('rule-add').click();
    await rules.getByTestId('rule-1').getByTestId('rule-pattern').fill('^(?P<workflow>ZZZ)$');
    await page.getByTestId('rules-save').click();
    await expect(page.getByTestId('rules-error')).toContainText(
      `${SITE} was changed by someone else meanwhile`,
    );
    // The page shows the other change now; the rule typed here is still there to save.
    const firstShift = page.getByTestId('shift-editor').getByTestId('shift-0');
    await expect(firstShift.getByTestId('shift-name')).toHaveValue('Night (other admin)');
    await page.getByTestId('rules-save').click();
    await expect(page.getByTestId('rules-error')).toHaveCount(0);
    // Both changes stand (the earlier step's "saved" toast may still be shown).
    const saved = () => app.read<{ shifts: Array<{ name: string }>; workflowRules: string[] }>(url);
    await expect
      .poll(async () => (await saved()).workflowRules)
      .toEqual([FIRST_RULE, '^(?P<workflow>ZZZ)$']);
    expect((await saved()).shifts[0]?.name).toBe('Night (other admin)');
  });

  await test.step('a user; the temporary password is shown once', async () => {
    await page.getByTestId('nav-side').getByTestId('menu-entry-admin-users').click();
    await page.getByTestId('user-create-open').click();
    await page.getByTestId('user-email').fill(USER_EMAIL);
    await choose(page, page.getByTestId('user-role'), text('en', 'admin.roles.customer'));
    await choose(page, page.getByTestId('user-organization'), ORGANIZATION);
    await page.getByTestId('user-create').click();
    const secret = page.getByTestId('user-temporary-password-value');
    await expect(secret).not.toBeEmpty();
    state.password = (await secret.textContent())?.trim() ?? '';
    expect(state.password.length).toBeGreaterThanOrEqual(8);
    await page.getByTestId('user-temporary-password-done').click();
    await page.getByTestId('users-search').fill(USER_EMAIL);
    const row = page.getByTestId(`user-row-${USER_EMAIL}`);
    await expect(row).toContainText(ORGANIZATION);
    await expect(row).toContainText(text('en', 'admin.users.active'));
    // Until the user chooses their own password.
    await expect(row.getByTestId('user-password-temporary')).toHaveText(
      text('en', 'admin.users.passwordTemporary'),
    );
  });

  await test.step('a service user belongs to no organization', async () => {
    const email = `service-${Date.now()}@example.com`;
    await page.getByTestId('user-create-open').click();
    await page.getByTestId('user-email').fill(email);
    await choose(page, page.getByTestId('user-role'), text('en', 'admin.roles.service'));
    await expect(page.getByTestId('user-organization')).toBeDisabled();
    await page.getByTestId('user-create').click();
    await expect(page.getByTestId('user-temporary-password-value')).not.toBeEmpty();
    await page.getByTestId('user-temporary-password-done').click();
    await page.getByTestId('users-search').fill(email);
    const row = page.getByTestId(`user-row-${email}`);
    await expect(row).toContainText(text('en', 'admin.roles.service'));
    await row.getByTestId('user-edit').click();
    const dialog = page.getByTestId('user-edit-dialog');
    for (const [action, state] of [
      ['deactivate', 'inactive'],
      ['reactivate', 'active'],
    ] as const) {
      await dialog.getByTestId(`user-${action}`).click();
      const confirm = page.getByTestId('confirm-dialog');
      await expect(confirm).toContainText(text('en', `admin.users.confirm.${action}Ok`));
      await confirm.getByTestId('confirm-ok').click();
      await expect(row).toContainText(text('en', `admin.users.${state}`));
    }
    await expect(row).not.toContainText(text('en', 'admin.users.inactive'));
    // Deleted for good: the dialog closes and the list no longer has the user.
    await dialog.getByTestId('user-delete').click();
    const confirm = page.getByTestId('confirm-dialog');
    await expect(confirm).toContainText(email);
    await confirm.getByTestId('confirm-ok').click();
    await expect(toast(page, text('en', 'admin.users.deleted', { email }))).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(row).toHaveCount(0);
    await expect(page.getByTestId('users-empty')).toBeVisible();
  });

  await test.step('an API token for the site, shown once', async () => {
    await app.open(`/admin/sites/${state.siteId}`);
    await page.getByTestId('site-tokens-link').click();
    await expectRoute(page, `/admin/tokens?siteId=${state.siteId}`);
    await page.getByTestId('token-name').fill(TOKEN_NAME);
    await page.getByTestId('token-create').click();
    const secret = page.getByTestId('token-secret-value');
    await expect(secret).not.toBeEmpty();
    state.token = (await secret.textContent())?.trim() ?? '';
    await expect(page.getByTestId(`token-row-${TOKEN_NAME}`)).toContainText(
      text('en', 'admin.tokens.never'),
    );
  });
});

test('a batch sent with the token: the new user sees the vehicle and its workflow; a rule change re-derives it', async ({
  app,
  page,
  browser,
  playwright,
}) => {
  test.setTimeout(420_000);
  expect(state.token, 'the set-up test ran first').not.toBe('');

  // The batch's messages lie in the minute before it is sent; near midnight in the site's
  // zone (Vienna, as Berlin) that minute may belong to the day before the one shown later.
  const batchFrom = berlinDayAt(Date.now() - 120_000);
  await test.step('NDJSON to POST /v2/Ingest/vda5050 with the token', async () => {
    const request = await playwright.request.newContext({ baseURL: serverUrl() });
    const sent = await ingestNdjson(request, {
      token: state.token,
      body: finishedOrdersNdjson(VEHICLE, ORDER_IDS),
    });
    await request.dispose();
    expect(sent.status, sent.text).toBe(200);
    expect(sent.answer?.rejected, sent.text).toEqual([]);
    expect(sent.answer?.accepted, sent.text).toBe(1 + ORDER_IDS.length * 2);
  });

  // The new user, in a browser of their own.
  const userContext = await browser.newContext({ baseURL: serverUrl() });
  await userContext.addCookies([{ name: 'fleetscope_consent', value: 'denied', url: serverUrl() }]);
  const userPage = await userContext.newPage();
  const user = new App(userPage);
  const workflowRow = (workflow: string) => userPage.getByTestId(`workflow-row-${workflow}`);

  await test.step('the new user logs in and sees the vehicle and its workflow', async () => {
    await user.open('/login');
    await user.loginWithForm({ email: USER_EMAIL, password: state.password, role: 'customer' });
    await expectRoute(userPage, '/dashboards/dashboard');
    await user.patchSettings({
      onboardingWatched: true,
      dateSelector: {
        mode: 'custom',
        from: batchFrom,
        to: berlinDay(0),
        combined: false,
        workflowShift: 'all',
      },
      selectedMachines: [],
    });
    const vehicles = await user.vehicles();
    expect(vehicles.map((vehicle) => [vehicle.serialNumber, vehicle.siteName])).toEqual([
      [VEHICLE.serialNumber, SITE],
    ]);
    await expect
      .poll(
        async () => {
          await user.open('/processes/workflows');
          await userPage.reload();
          await expect(userPage.getByTestId('page-processesWorkflows')).toBeVisible();
          await expect(userPage.locator('[data-status="loading"]')).toHaveCount(0);
          return workflowRow('NIGHT').count();
        },
        { timeout: 60_000, intervals: [1_000, 2_000, 3_000] },
      )
      .toBe(1);
    await expect(workflowRow('NIGHT')).toContainText('2');
    await expect(userPage.getByTestId('machine-selector')).toBeVisible();
  });

  await test.step('the superuser changes the rule and follows the re-derivation to its end', async () => {
    await app.login(DEMO_USERS.superuser, { language: 'en' });
    await app.open(`/admin/sites/${state.siteId}`);
    await page.reload();
    const rules = page.getByTestId('workflow-rules');
    const rule = rules.getByTestId('rule-0');
    await expect(rule.getByTestId('rule-pattern')).toHaveValue(FIRST_RULE);
    // The preview now reads the site's orders: both assigned by the first rule.
    await expect(rule.getByTestId('rule-matched')).toHaveText('2 matches');
    await expect(page.getByTestId('preview-table')).toContainText('NIGHT-TRANSPORT-0001');
    await rule.getByTestId('rule-pattern').fill(SECOND_RULE);
    await expect(page.getByTestId('preview-workflows')).toContainText('NIGHT-TRANSPORT: 2');
    await expect(page.getByTestId('preview-unassigned')).toHaveText(
      text('en', 'admin.rules.previewUnassigned', { number: '0' }),
    );
    await page.getByTestId('rules-save').click();
    await expect(toast(page, text('en', 'admin.jobs.started'))).toBeVisible();
    const job = page.getByTestId('followed-job').locator('[data-testid^="job-"][data-state]');
    await expect(job).toBeVisible();
    await expect(job.getByTestId('job-messages')).toContainText('/');
    await expect(job).toHaveAttribute('data-state', 'done', { timeout: 300_000 });
    await expect(job.getByTestId('job-percent')).toHaveText('100%');
    await expect(page.getByTestId('job-indicator')).toHaveCount(0);
  });

  await test.step('the workflow list follows', async () => {
    await expect
      .poll(
        async () => {
          await userPage.reload();
          await expect(userPage.getByTestId('page-processesWorkflows')).toBeVisible();
          await expect(userPage.locator('[data-status="loading"]')).toHaveCount(0);
          return [await workflowRow('NIGHT-TRANSPORT').count(), await workflowRow('NIGHT').count()];
        },
        { timeout: 60_000, intervals: [1_000, 2_000, 3_000] },
      )
      .toEqual([1, 0]);
  });
  await userContext.close();

  await test.step('the jobs page keeps the finished job after a reload', async () => {
    await app.open('/admin/jobs');
    await page.reload();
    await expect(page.getByTestId('jobs-table')).toBeVisible();
    await expect(
      page.getByTestId('jobs-table').locator('[data-state="done"]').first(),
    ).toBeVisible();
    // The job names its site by the site's name.
    await expect(page.getByTestId('jobs-table').getByRole('link', { name: SITE })).not.toHaveCount(
      0,
    );
  });

  await test.step('the audit log shows each step', async () => {
    await app.open('/admin/audit');
    await page.getByTestId('audit-filter-actor').fill(DEMO_USERS.superuser.email);
    const table = page.getByTestId('audit-table');
    const expected: Array<[string, string]> = [
      ['organization.create', ORGANIZATION],
      ['site.create', SITE],
      ['site.update', SECOND_RULE],
      ['user.create', USER_EMAIL],
      ['token.create', TOKEN_NAME],
    ];
    for (const [action, shown] of expected) {
      await page.getByTestId('audit-filter-action').fill(action);
      const row = table.locator(`[data-testid="audit-row-${action}"]`).filter({ hasText: shown });
      await expect(row.first()).toBeVisible();
    }
    // Chosen by its name: each option shows the name and its code, the filter takes the code.
    const actionFilter = page.getByTestId('audit-filter-action');
    await actionFilter.fill('site cre');
    await page.getByRole('option', { name: text('en', 'admin.audit.actions.site.create') }).click();
    await expect(actionFilter).toHaveValue('site.create');
    await expect(
      table.locator('[data-testid="audit-row-site.create"]').filter({ hasText: SITE }).first(),
    ).toBeVisible();
    // The rule change: before and after of the rules side by side.
    await actionFilter.fill('site.update');
    const ruleChange = table
      .locator('[data-testid="audit-row-site.update"]')
      .filter({ hasText: SECOND_RULE })
      .first();
    const diff = ruleChange.getByTestId('audit-diff');
    await expect(diff.locator('del').filter({ hasText: FIRST_RULE })).toHaveCount(1);
    await expect(diff.locator('ins').filter({ hasText: SECOND_RULE })).toHaveCount(1);

    // From a day after every change on, in the picker of the app's language: none is left.
    await page.getByTestId('time-range-from').click();
    const calendar = page.getByRole('dialog');
    await calendar.getByRole('button', { name: 'Next month' }).click();
    await calendar.getByRole('button', { name: /^15 / }).click();
    await calendar.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByTestId('time-range-from')).toHaveText(/^15\/\d\d\/\d{4} 00:00$/);
    await expect(page.getByTestId('audit-empty')).toBeVisible();
    await expect(ruleChange).toHaveCount(0);
  });

  await test.step('a line the server cannot read is a dead letter, read in German', async () => {
    const request = await playwright.request.newContext({ baseURL: serverUrl() });
    const sent = await ingestNdjson(request, { token: state.token, body: '{"topic": 1}\n' });
    await request.dispose();
    expect(sent.answer?.rejected, sent.text).toEqual([
      { line: 1, reason: '"topic" is missing or not a string' },
    ]);
    // Read by a superuser of its own who chose German: the demo superuser's language is
    // shared with the tests running beside this one (a11y.spec.ts sets it to English).
    const reader = { email: `de-admin-${RUN}@e2e.fleetscope`, role: 'superuser' as const };
    const { temporaryPassword } = await app.post<{ temporaryPassword: string }>('/v2/Admin/Users', {
      email: reader.email,
      role: reader.role,
      language: 'de',
    });
    await app.login({ ...reader, password: temporaryPassword });
    await app.open('/admin/deadLetters');
    await page.reload(); // the page loaded in English: the user's language is read at start
    const letter = page.getByRole('row').filter({ hasText: '"topic" fehlt oder ist kein Text' });
    await expect(letter).toContainText(text('de', 'admin.deadLetters.categories.line'));
  });
});

test('a retired vehicle leaves the statusboard and joins the retired machines; it comes back', async ({
  app,
  page,
  browser,
}) => {
  expect(state.token, 'the set-up test ran first').not.toBe('');
  const row = page.getByTestId(`vehicle-row-${VEHICLE.serialNumber}`);
  async function setRetired(retired: boolean) {
    await row.getByTestId('vehicle-edit').click();
    const dialog = page.getByTestId('vehicle-dialog');
    await dialog
      .getByRole('switch', { name: text('en', 'admin.vehicles.retired') })
      .setChecked(retired);
    await dialog.getByTestId('vehicle-save').click();
    await expect(dialog).toHaveCount(0);
  }
  await app.login(DEMO_USERS.superuser, { language: 'en' });
  await app.open(`/admin/vehicles?siteId=${state.siteId}`);
  await expect(row.getByTestId('vehicle-status')).toHaveText(
    text('en', 'admin.vehicles.inService'),
  );
  await setRetired(true);
  await expect(row.getByTestId('vehicle-status')).toContainText('retired since');

  // The site's user: no tile for it, and in the machine selector among the retired.
  const userContext = await browser.newContext({ baseURL: serverUrl() });
  await userContext.addCookies([{ name: 'fleetscope_consent', value: 'denied', url: serverUrl() }]);
  const userPage = await userContext.newPage();
  const user = new App(userPage);
  await user.open('/login');
  await user.loginWithForm({ email: USER_EMAIL, password: state.password, role: 'customer' });
  await expectRoute(userPage, '/dashboards/dashboard');
  const [vehicle] = await user.vehicles();
  await user.open('/dashboards/statusboard');
  const board = userPage.getByTestId('page-statusboard');
  await expect(board.getByTestId('state-counts')).toBeVisible();
  await expect(board.getByTestId(`status-tile-${vehicle?.id}`)).toHaveCount(0);
  await expect(board.getByTestId('statusboard-none-in-service')).toHaveText(
    text('en', 'statusboard.noneInService'),
  );
  await userPage.getByTestId('machine-selector').click();
  const retiredGroup = userPage.getByRole('group', { name: text('en', 'filters.retiredGroup') });
  await expect(retiredGroup.getByRole('option')).toHaveText([`${vehicle?.name} (${SITE})`]);

  // Back in service: its tile again.
  await setRetired(false);
  await expect(row.getByTestId('vehicle-status')).toHaveText(
    text('en', 'admin.vehicles.inService'),
  );
  await userPage.reload();
  await expect(board.getByTestId(`status-tile-${vehicle?.id}`)).toHaveCount(1);
  await userContext.close();
});

test('a site without vehicles is deleted; the one with a vehicle stays and says why', async ({
  app,
  page,
}) => {
  expect(state.token, 'the set-up test ran first').not.toBe('');
  const spare = `Spare Hall ${RUN}`;
  await app.login(DEMO_USERS.superuser, { language: 'en' });
  await app.open('/admin/sites');
  await choose(page, page.getByTestId('site-organization'), ORGANIZATION);
  await page.getByTestId('site-name').fill(spare);
  await page.getByTestId('site-create').click();
  await expectRoute(page, /^\/admin\/sites\/\d+$/);
  await page.getByTestId('nav-side').getByTestId('menu-entry-admin-sites').click();
  const confirm = page.getByTestId('confirm-dialog');

  await test.step('the empty one goes, with a confirmation first', async () => {
    const row = page.getByTestId(`site-row-${spare}`);
    await row.getByTestId('site-delete').click();
    await expect(confirm).toContainText(text('en', 'admin.sites.deleteConfirm', { name: spare }));
    await confirm.getByTestId('confirm-ok').click();
    await expect(toast(page, text('en', 'admin.sites.deleted', { name: spare }))).toBeVisible();
    await expect(row).toHaveCount(0);
  });

  await test.step('the one the batch registered a vehicle at stays', async () => {
    const row = page.getByTestId(`site-row-${SITE}`);
    await row.getByTestId('site-delete').click();
    await confirm.getByTestId('confirm-ok').click();
    await expect(confirm.getByTestId('site-delete-error')).toHaveText(
      `site '${SITE}' still has vehicles (1); move them to another site first`,
    );
    await expect(page.getByTestId('error-overlay')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(row).toBeVisible();
  });

  await test.step('the audit log has the deletion', async () => {
    await app.open('/admin/audit');
    await page.getByTestId('audit-filter-action').fill('site.delete');
    const entry = page.getByTestId('audit-table').locator('[data-testid="audit-row-site.delete"]');
    await expect(entry.filter({ hasText: spare })).toHaveCount(1);
  });
});
