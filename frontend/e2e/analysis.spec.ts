import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expectChartWithData, expectKpiWithData, tableRowCount } from './support/charts';
import { backfilledSelection } from './support/filters';
import { type App, expect, test } from './support/fixtures';
import { text } from './support/i18n';
import { DEMO_USERS } from './support/users';

/**
 * The analysis pages against the backfilled demo history (global setup: `--days 2`): every page
 * shows data, the combined switch changes the time-in-state chart and is saved, a workflow
 * opens its drill-down and the error-history CSV holds exactly the rows of the table.
 * The saved selectors of the demo customer belong to this file.
 */
const user = DEMO_USERS.customer;

/** Logs the customer in with a period that holds the backfilled day, all vehicles, one bar each. */
async function loginWithBackfilledPeriod(app: App, { combined = false } = {}): Promise<void> {
  await app.login(user, { language: 'en' });
  await app.patchSettings(backfilledSelection({ combined }));
}

/** Records of an RFC 4180 CSV (quoted fields may hold separators, quotes and line breaks). */
function csvRecords(content: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  const source = content.replace(/^\uFEFF/, '');
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index];
    if (quoted) {
      if (char === '"' && source[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') {
        quoted = false;
      } else {
        field += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',' || char === ';') {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[index + 1] === '\n') {
        index += 1;
      }
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else {
      field += char;
    }
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

const PAGES_WITH_DATA: Array<{
  route: string;
  charts: string[];
  kpis: string[];
}> = [
  {
    route: '/productivity/analysis',
    charts: ['timeInState', 'ordersHeatmap'],
    kpis: ['availability', 'orders'],
  },
  { route: '/productivity/history', charts: ['history-availability'], kpis: [] },
  { route: '/dashboards/dashboard', charts: [], kpis: ['availability', 'orders'] },
  {
    route: '/processes/analysis',
    charts: ['cycle-histogram', 'outcomes'],
    kpis: ['cycle-p50', 'success-rate'],
  },
  { route: '/processes/workflows', charts: ['workflows'], kpis: [] },
  { route: '/processes/actions', charts: ['actions'], kpis: [] },
  { route: '/failures/analysis', charts: ['pareto-count'], kpis: ['mtbf'] },
  { route: '/failures/overview', charts: ['failure-matrix'], kpis: [] },
  { route: '/failures/visualization', charts: ['error-map'], kpis: [] },
  { route: '/battery', charts: ['charge', 'health-trend'], kpis: ['mean-charge', 'sessions'] },
];

test.describe('every analysis page shows data of the backfilled day', () => {
  for (const { route, charts, kpis } of PAGES_WITH_DATA) {
    test(route, async ({ app, page }) => {
      await loginWithBackfilledPeriod(app);
      await app.open(route);
      for (const chart of charts) {
        await expectChartWithData(page, chart);
      }
      for (const kpi of kpis) {
        await expectKpiWithData(page, kpi);
      }
      // Checked once the page has loaded, so that it cannot pass before the page decides.
      await expect(page.getByTestId('no-data')).toHaveCount(0);
    });
  }

  test('/failures/history', async ({ app, page }) => {
    await loginWithBackfilledPeriod(app);
    await app.open('/failures/history');
    const pager = page.getByTestId('pager-info');
    await expect(pager).not.toHaveAttribute('data-total', '0');
    await expect(page.getByTestId('error-history-empty')).toHaveCount(0);
    await expect(
      page.getByTestId('error-history-table').locator('[data-testid^="error-row-"]').first(),
    ).toBeVisible();
  });

  test('/dashboards/statusboard', async ({ app, page }) => {
    await loginWithBackfilledPeriod(app);
    await app.open('/dashboards/statusboard');
    const vehicles = await app.vehicles();
    await expect(page.locator('[data-testid^="status-tile-"]')).toHaveCount(vehicles.length);
    // Every vehicle reported during the backfill, so each is counted in one state.
    const counts = page.getByTestId('state-counts').locator('[data-testid^="state-count-"]');
    await expect
      .poll(async () => {
        const values = await counts.evaluateAll((nodes) =>
          nodes.map((node) => Number(node.getAttribute('data-count') ?? 0)),
        );
        return values.reduce((sum, value) => sum + value, 0);
      })
      .toBe(vehicles.length);
  });
});

test('the combined switch puts all vehicles into one time-in-state bar and is saved', async ({
  app,
  page,
}) => {
  await loginWithBackfilledPeriod(app, { combined: false });
  const vehicles = await app.vehicles();
  expect(vehicles.length).toBeGreaterThan(1);
  await app.open('/productivity/analysis');
  const card = await expectChartWithData(page, 'timeInState');
  await expect.poll(() => tableRowCount(card)).toBe(vehicles.length);

  const saved = page.waitForResponse(
    (response) =>
      response.url().includes('/v2/User/settings') && response.request().method() === 'PATCH',
  );
  const combined = page.getByRole('switch', { name: text('en', 'filters.combined') });
  await combined.click();
  await expect(combined).toBeChecked();
  expect((await saved).ok()).toBe(true);
  await expectChartWithData(page, 'timeInState');
  await expect.poll(() => tableRowCount(card)).toBe(1);

  await page.reload();
  await expect(page.getByRole('switch', { name: text('en', 'filters.combined') })).toBeChecked();
  const reloaded = await expectChartWithData(page, 'timeInState');
  await expect.poll(() => tableRowCount(reloaded)).toBe(1);
  expect((await app.settings()).dateSelector.combined).toBe(true);
});

test('a workflow row opens its drill-down with the orders of that workflow', async ({
  app,
  page,
}) => {
  await loginWithBackfilledPeriod(app);
  await app.open('/processes/workflows');
  const row = page.locator('[data-testid^="workflow-row-"]').first();
  await expect(row).toBeVisible();
  const workflow = (await row.getAttribute('data-testid'))?.replace(/^workflow-row-/, '') ?? '';
  expect(workflow).not.toBe('');
  // By keyboard: the row's name is a link (a row itself is no control for a screen reader).
  await row.getByRole('link', { name: workflow }).focus();
  await page.keyboard.press('Enter');
  const drilldown = page.getByTestId('drilldown-workflow');
  await expect(drilldown).toHaveAttribute('data-workflow', workflow);
  await expect(drilldown.getByTestId('drilldown-title')).toContainText(workflow);
  await expect(drilldown.locator('[data-testid^="order-row-"]').first()).toBeVisible();
  await expect(drilldown.getByTestId('drilldown-orders-empty')).toHaveCount(0);

  // By pointer: anywhere in the row, here its order count.
  await drilldown.getByTestId('drilldown-close').click();
  await expect(drilldown).toHaveCount(0);
  await row.locator('td').nth(1).click();
  await expect(drilldown).toHaveAttribute('data-workflow', workflow);
});

test('the whole lists of action and error types sort by their headers in the browser', async ({
  app,
  page,
}) => {
  await loginWithBackfilledPeriod(app);
  const typesOf = async (prefix: string) =>
    (
      await page
        .locator(`[data-testid^="${prefix}"]`)
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-testid') ?? ''))
    ).map((id) => id.slice(prefix.length));
  const byName = (names: string[]) => [...names].sort((a, b) => a.localeCompare(b));

  await app.open('/failures/overview');
  const errorRows = page.locator('[data-testid^="error-type-row-"]');
  await expect(errorRows.first()).toBeVisible();
  const served = await typesOf('error-type-row-');
  const table = page.getByTestId('error-types-table');
  await expect(table).toHaveAttribute('data-sort', '-count');
  await page.getByTestId('sort-errorType').click(); // a name starts A to Z
  await expect(table).toHaveAttribute('data-sort', 'errorType');
  await expect.poll(() => typesOf('error-type-row-')).toEqual(byName(served));
  await page.getByTestId('sort-errorType').click();
  await expect.poll(() => typesOf('error-type-row-')).toEqual(byName(served).reverse());
  await page.getByTestId('sort-count').click(); // a number starts with the largest
  await expect.poll(() => typesOf('error-type-row-')).toEqual(served);

  await app.open('/processes/actions');
  await expect(page.locator('[data-testid^="action-row-"]').first()).toBeVisible();
  const actions = await typesOf('action-row-');
  await page.getByTestId('sort-actionType').click();
  await expect.poll(() => typesOf('action-row-')).toEqual(byName(actions));
  await expect(page.getByTestId('actions-table')).toHaveAttribute('data-sort', 'actionType');
});

test('the error-history CSV holds exactly the rows the table counts', async ({ app, page }) => {
  await loginWithBackfilledPeriod(app);
  await app.open('/failures/history');
  const pager = page.getByTestId('pager-info');
  await expect(pager).not.toHaveAttribute('data-total', '0');
  const total = Number(await pager.getAttribute('data-total'));
  expect(total).toBeGreaterThan(0);
  expect(await downloadedCsvDataRows(page)).toBe(total);

  // A filter narrows the table and the file alike.
  const filtered = page.waitForResponse(
    (response) =>
      /ErrorHistory(?!\.csv)/.test(response.url()) && response.url().includes('level=WARNING'),
  );
  await page.getByTestId('filter-level').click();
  await page.getByRole('option', { name: text('en', 'failures.level.WARNING') }).click();
  expect((await filtered).ok()).toBe(true);
  await expect(pager).not.toHaveAttribute('data-total', String(total));
  const filteredTotal = Number(await pager.getAttribute('data-total'));
  expect(filteredTotal).toBeGreaterThan(0);
  expect(filteredTotal).toBeLessThan(total);
  expect(await downloadedCsvDataRows(page)).toBe(filteredTotal);
});

/** Clicks the error-history export and counts the data rows of the downloaded file. */
async function downloadedCsvDataRows(page: Page): Promise<number> {
  const download = page.waitForEvent('download');
  await page.getByTestId('error-history-csv').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  const records = csvRecords(readFileSync(await file.path(), 'utf8')).filter(
    (record) => record.length > 1 || record[0] !== '',
  );
  // The first record is the header.
  return records.length - 1;
}

test('a period without data says why on every chart of every analysis page', async ({
  app,
  page,
}) => {
  // product.md 4: "every empty result says why ... instead of an empty frame". The history's
  // buckets without data come with null figures; it drew eight empty frames.
  await app.login(user, { language: 'en' });
  const year2020 = 'mode=year&from=2020-01-01&to=2020-12-31&vehicles=all&shift=all&combined=false';
  for (const { route, charts } of PAGES_WITH_DATA) {
    await app.open(`${route}?${year2020}`);
    for (const chart of charts) {
      const empty = page.getByTestId(`chart-${chart}`).getByTestId('chart-empty');
      await expect(empty, `${route} ${chart}`).toHaveAttribute('data-reason', 'noDataInPeriod');
    }
  }
});
