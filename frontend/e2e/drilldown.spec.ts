import type { Locator, Page } from '@playwright/test';
import { expectChartWithData } from './support/charts';
import { berlinDay } from './support/filters';
import { expect, expectRoute, test } from './support/fixtures';
import { E2E_USERS } from './support/users';

/**
 * Issue 23, drill-down: chart elements, their table rows and KPI tiles open the list behind
 * them, filtered, in the same period. Every view comes in the link (yesterday and today,
 * which the global setup backfills), so this file's user keeps its saved settings.
 */
const user = E2E_USERS.drilldown;

test.describe.configure({ mode: 'default' });

function view({ vehicles = 'all' }: { vehicles?: string } = {}): string {
  return `mode=custom&from=${berlinDay(-1)}&to=${berlinDay(0)}&vehicles=${vehicles}&shift=all&combined=false`;
}

/** The query of the current hash route. */
function routeParams(page: Page): URLSearchParams {
  const hash = new URL(page.url()).hash;
  return new URLSearchParams(hash.slice(hash.indexOf('?') + 1));
}

/** The card's table view; returns its body rows. */
async function tableRows(card: Locator): Promise<Locator> {
  await card.getByTestId('chart-table-toggle').click();
  await expect(card).toHaveAttribute('data-view', 'table');
  const rows = card.getByTestId('chart-table').locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  return rows;
}

/** The number a table cell shows ("1,234" -> 1234). */
function countOf(text: string | null): number {
  return Number(text?.replace(/\D/g, ''));
}

/** The numbers of one column (0-based) of a chart table's body rows. */
async function columnCounts(rows: Locator, column: number): Promise<number[]> {
  return (await rows.locator(`td:nth-child(${column + 1})`).allTextContents()).map(countOf);
}

/** Texts of one column of the error history (0-based) on the page shown. */
async function historyColumn(page: Page, column: number): Promise<string[]> {
  const table = page.getByTestId('error-history-table');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  return table.locator(`tbody tr td:nth-child(${column + 1})`).allTextContents();
}

/**
 * Clicks the canvas at the given points, in order, until the route matches (a click beside
 * every element does nothing). ECharts draws on a canvas, so a bar has no element of its own.
 */
async function clickUntilRoute(
  page: Page,
  canvas: Locator,
  route: RegExp,
  points: (box: { width: number; height: number }) => Array<{ x: number; y: number }>,
): Promise<void> {
  await expect(canvas).toBeVisible();
  const box = await canvas.boundingBox();
  if (!box) {
    throw new Error('the chart has no canvas box');
  }
  for (const position of points(box)) {
    await canvas.click({ position });
    if (route.test(new URL(page.url()).hash)) {
      return;
    }
  }
  throw new Error(`no click on the canvas led to ${route}`);
}

function expectSamePeriod(page: Page): void {
  const params = routeParams(page);
  expect(params.get('from')).toBe(berlinDay(-1));
  expect(params.get('to')).toBe(berlinDay(0));
  expect(params.get('shift')).toBe('all');
}

test.beforeEach(async ({ app }) => {
  await app.login(user, { language: 'en' });
});

test('a Pareto row opens the error history of its type, a bar segment that of its level', async ({
  app,
  page,
}) => {
  await app.open(`/failures/analysis?${view()}`);
  const card = await expectChartWithData(page, 'pareto-count');
  const rows = await tableRows(card);
  // Every bar's type with its count per level, as the table lists them (after the type,
  // count and downtime: FATAL, CRITICAL, URGENT, WARNING).
  const counts = new Map<string, Map<string, number>>();
  for (const row of await rows.all()) {
    const cells = await row.locator('td').allTextContents();
    const byLevel = ['FATAL', 'CRITICAL', 'URGENT', 'WARNING'].map(
      (level, index) => [level, Number(cells[3 + index]?.replace(/\D/g, ''))] as const,
    );
    counts.set(cells[0] ?? '', new Map(byLevel));
  }
  const first = rows.first();
  const errorType = (await first.locator('td').nth(0).textContent()) ?? '';
  const count = Number((await first.locator('td').nth(1).textContent())?.replace(/\D/g, ''));
  expect(errorType).not.toBe('');
  const historyCall = page.waitForRequest((request) => {
    const url = new URL(request.url());
    return (
      url.pathname === '/v2/Analytics/ErrorHistory' &&
      url.searchParams.get('errorType') === errorType
    );
  });
  await first.getByRole('link', { name: errorType }).click();

  await expectRoute(page, /^\/failures\/history\?/);
  expectSamePeriod(page);
  expect(routeParams(page).get('errorType')).toBe(errorType);
  await historyCall;
  // The list holds exactly the episodes the bar counted, all of that type.
  await expect(page.getByTestId('pager-info')).toHaveAttribute('data-total', String(count));
  const types = await historyColumn(page, 1);
  expect(new Set(types)).toEqual(new Set([errorType]));
  await expect(page.getByTestId('filter-error-type')).toHaveValue(errorType);

  // A bar on the canvas: the bars stand on the axis in the chart's lower half; scan across
  // it until a click lands on one (the tallest, leftmost bars come first).
  await app.open(`/failures/analysis?${view()}`);
  const chart = await expectChartWithData(page, 'pareto-count');
  await expect(chart).toHaveAttribute('data-view', 'chart');
  await clickUntilRoute(page, chart.locator('canvas').first(), /^#\/failures\/history/, (box) =>
    Array.from({ length: Math.floor((box.width * 0.6) / 6) }, (_, step) => ({
      x: 6 * step,
      y: box.height * 0.6,
    })),
  );
  const clicked = routeParams(page).get('errorType') ?? '';
  const level = routeParams(page).get('level') ?? '';
  expect(counts.has(clicked), `a bar of the Pareto: ${clicked}`).toBe(true);
  expectSamePeriod(page);
  // The segment's episodes: that type at that level.
  await expect(page.getByTestId('pager-info')).toHaveAttribute(
    'data-total',
    String(counts.get(clicked)?.get(level)),
  );
});

test("a workflow bar opens that workflow's orders", async ({ app, page }) => {
  await app.open(`/processes/workflows?${view()}`);
  const card = await expectChartWithData(page, 'workflows');
  const first = (await tableRows(card)).first();
  const workflow = (await first.locator('td').nth(0).textContent()) ?? '';
  expect(workflow).not.toBe('');
  const ordersCall = page.waitForRequest(
    (request) =>
      new URL(request.url()).pathname ===
      `/v2/Analytics/Workflows/${encodeURIComponent(workflow)}/Orders`,
  );
  await first.getByRole('link', { name: workflow }).click();

  await expect.poll(() => routeParams(page).get('workflow')).toBe(workflow);
  expectSamePeriod(page);
  await ordersCall;
  const drilldown = page.getByTestId('drilldown-workflow');
  await expect(drilldown).toHaveAttribute('data-workflow', workflow);
  await expect(drilldown.locator('[data-testid^="order-row-"]').first()).toBeVisible();
  // The orders listed are the workflow's orders in the period (its row in the table).
  const orders = await page
    .getByTestId(`workflow-row-${workflow}`)
    .locator('td')
    .nth(1)
    .textContent();
  await expect(drilldown.getByTestId('pager-info')).toHaveAttribute(
    'data-total',
    String(Number(orders?.replace(/\D/g, ''))),
  );

  // The link itself opens the same drill-down (a colleague gets the same list).
  await page.reload();
  await expect(page.getByTestId('drilldown-workflow')).toHaveAttribute('data-workflow', workflow);

  // From a finished-orders tile (outcome=finished): the finished ones, as many as the row says.
  await app.open(
    `/processes/workflows?${view()}&workflow=${encodeURIComponent(workflow)}&outcome=finished`,
  );
  const finished = await page
    .getByTestId(`workflow-row-${workflow}`)
    .locator('td')
    .nth(2)
    .textContent();
  await expect(page.getByTestId('drilldown-workflow').getByTestId('pager-info')).toHaveAttribute(
    'data-total',
    String(Number(finished?.replace(/\D/g, ''))),
  );
});

test("a vehicle's time-in-state row opens its errors and orders, a bar's segment what filled it", async ({
  app,
  page,
}) => {
  const vehicles = await app.vehicles();
  await app.open(`/productivity/analysis?${view()}`);
  const card = await expectChartWithData(page, 'timeInState');
  const rows = await tableRows(card);
  const name = (await rows.nth(0).locator('td').nth(0).textContent()) ?? '';
  const vehicle = vehicles.find((candidate) => candidate.name === name);
  expect(vehicle, `vehicle ${name}`).toBeDefined();
  await rows.nth(0).getByRole('link', { name }).click();

  await expectRoute(page, /^\/failures\/history\?/);
  expectSamePeriod(page);
  expect(routeParams(page).get('vehicles')).toBe(String(vehicle?.id));
  const shown = page.getByTestId('error-history-table').locator('tbody tr');
  await expect(shown.first().or(page.getByTestId('error-history-empty'))).toBeVisible();
  if ((await page.getByTestId('error-history-empty').count()) === 0) {
    expect(new Set(await historyColumn(page, 0))).toEqual(new Set([name]));
  }

  // Beside the filters, that vehicle's orders in the same period: its workflows, asked of
  // the server for that vehicle alone.
  const ordersLink = page.getByTestId('error-history-orders-link');
  await expect(ordersLink).toHaveText(`Orders of ${name}`);
  const workflowsCall = page.waitForRequest(
    (request) => new URL(request.url()).pathname === '/v2/Analytics/Workflows',
  );
  await ordersLink.click();
  await expectRoute(page, /^\/processes\/workflows\?/);
  expectSamePeriod(page);
  expect(routeParams(page).get('vehicles')).toBe(String(vehicle?.id));
  expect(new URL((await workflowsCall).url()).searchParams.get('vehicles')).toBe(
    String(vehicle?.id),
  );
  await expect(page.getByTestId('workflows-list')).toBeVisible();

  // The bar on the canvas: one vehicle, one bar across the chart's middle.
  await app.open(`/productivity/analysis?${view({ vehicles: String(vehicle?.id) })}`);
  const chart = await expectChartWithData(page, 'timeInState');
  const canvas = chart.locator('canvas').first();
  await expect(canvas).toBeVisible();
  // The bar's height is a few pixels of the card: try the middle rows until one hits it.
  // Whichever state's segment is hit opens that vehicle's list of it: its orders (working),
  // charge sessions (charging) or errors (the other states).
  await clickUntilRoute(
    page,
    canvas,
    /^#\/(failures\/history|processes\/workflows|battery)\?/,
    (box) =>
      Array.from({ length: Math.floor((box.height * 0.5) / 4) }, (_, step) => ({
        x: box.width * 0.4,
        y: box.height * 0.3 + 4 * step,
      })),
  );
  expect(routeParams(page).get('vehicles')).toBe(String(vehicle?.id));
  expectSamePeriod(page);
});

test('a dashboard tile opens the page it summarises, by pointer and by keyboard', async ({
  app,
  page,
}) => {
  await app.open(`/dashboards/dashboard?${view()}`);
  const errors = page.getByTestId('kpi-errors');
  await expect(errors.getByTestId('kpi-value')).toHaveText(/\d/);
  // The whole tile is the link: a click anywhere on it (here its middle, the value) opens
  // the error history.
  await errors.click();
  await expectRoute(page, /^\/failures\/history\?/);
  expectSamePeriod(page);
  expect(routeParams(page).has('errorType')).toBe(false);

  // The sparkline lies above the tile's link: hovering reads its buckets (today's still
  // running, "so far"), a click on it opens the same page.
  await page.goBack();
  const spark = errors.getByTestId('sparkline');
  const box = await spark.boundingBox();
  expect(box).not.toBeNull();
  await spark.hover({ position: { x: (box?.width ?? 1) - 2, y: (box?.height ?? 1) / 2 } });
  await expect(page.getByText(/\(so far\): \d/)).toBeVisible();
  await spark.click();
  await expectRoute(page, /^\/failures\/history\?/);
  expectSamePeriod(page);

  await page.goBack();
  const mtbf = page.getByRole('link', { name: /MTBF.*\(opens Failure analysis\)/ });
  await expect(mtbf).toBeVisible();
  await mtbf.focus();
  await page.keyboard.press('Enter');
  await expectRoute(page, /^\/failures\/analysis\?/);
  expectSamePeriod(page);

  // German names say where a tile leads too.
  await app.patchMe({ language: 'de' });
  await app.open(`/dashboards/dashboard?${view()}`);
  // The language is read when the app starts.
  await page.reload();
  await expect(page.getByRole('link', { name: /\(öffnet Batterie\)$/ })).toHaveCount(1);
  await app.patchMe({ language: 'en' });
});

test("the dashboard's mean charge opens the battery page, which shows the same figure", async ({
  app,
  page,
}) => {
  await app.open(`/dashboards/dashboard?${view()}`);
  const dashboardValue = page.getByTestId('kpi-meanCharge').getByTestId('kpi-value');
  await expect(dashboardValue).toHaveText(/\d/);
  const shown = await dashboardValue.textContent();
  await page.getByTestId('kpi-meanCharge').click();
  await expectRoute(page, /^\/battery\?/);
  expectSamePeriod(page);
  await expect(page.getByTestId('kpi-mean-charge').getByTestId('kpi-value')).toHaveText(
    shown ?? '',
  );
  await expect(page.getByTestId('kpi-min-charge').getByTestId('kpi-value')).toHaveText(/\d/);
});

test("the health and low-charge tiles open the table of each vehicle's battery figures", async ({
  app,
  page,
}) => {
  // Per vehicle (the page already shows them apart): the table of the per-vehicle chart.
  await app.open(`/battery?${view()}`);
  const card = page.getByTestId('chart-battery-vehicles');
  await expect(card).toHaveAttribute('data-status', 'ready');
  await expect(card).toHaveAttribute('data-view', 'chart');
  await page.getByTestId('kpi-below-low').getByTestId('kpi-label').click();
  await expect.poll(() => routeParams(page).get('table')).toBe('battery-vehicles');
  expectSamePeriod(page);
  await expect(card).toHaveAttribute('data-view', 'table');
  const table = card.getByTestId('chart-table');
  await expect(table).toBeInViewport();
  await expect(table.locator('thead')).toContainText('Time below 20%');
  const vehicles = await table.locator('tbody tr').count();
  expect(vehicles).toBeGreaterThan(1);
  // Back to the chart clears the link's request, so the tile opens the table again.
  await card.getByTestId('chart-table-toggle').click();
  await expect.poll(() => routeParams(page).has('table')).toBe(false);
  await page.getByTestId('kpi-health-slope').getByTestId('kpi-label').click();
  await expect(card).toHaveAttribute('data-view', 'table');

  // Combined: the vehicles apart, with the same table open.
  await app.open(`/battery?${view().replace('combined=false', 'combined=true')}`);
  await page.getByTestId('kpi-health').getByTestId('kpi-label').click();
  await expect.poll(() => routeParams(page).get('combined')).toBe('false');
  expect(routeParams(page).get('table')).toBe('battery-vehicles');
  await expect(card).toHaveAttribute('data-view', 'table');
  await expect(table.locator('tbody tr')).toHaveCount(vehicles);
});

test('the battery tiles and depth bars open the charge sessions they count', async ({
  app,
  page,
}) => {
  await app.open(`/battery?${view()}&combined=true`);
  const tile = page.getByTestId('kpi-sessions');
  const count = Number((await tile.getByTestId('kpi-value').textContent())?.replace(/\D/g, ''));
  expect(count).toBeGreaterThan(0);
  const sessionsCall = page.waitForRequest(
    (request) => new URL(request.url()).pathname === '/v2/Analytics/Battery/Sessions',
  );
  await tile.click();
  await expect.poll(() => routeParams(page).get('sessions')).toBe('all');
  expectSamePeriod(page);
  await sessionsCall;
  const list = page.getByTestId('drilldown-charge-sessions');
  await expect(list).toHaveAttribute('data-depth', 'all');
  await expect(list.getByTestId('pager-info')).toHaveAttribute('data-total', String(count));
  await expect(list.locator('[data-testid^="charge-session-"]').first()).toBeVisible();

  // A bar of the depth histogram (its table row): the sessions of that depth only.
  const rows = await tableRows(page.getByTestId('chart-depth-of-discharge'));
  let bar = -1;
  for (const [index, row] of (await rows.all()).entries()) {
    if (Number((await row.locator('td').nth(1).textContent())?.replace(/\D/g, '')) > 0) {
      bar = index;
      break;
    }
  }
  expect(bar).toBeGreaterThanOrEqual(0);
  const row = rows.nth(bar);
  const inBar = Number((await row.locator('td').nth(1).textContent())?.replace(/\D/g, ''));
  await row.getByRole('link').first().click();
  await expect.poll(() => routeParams(page).get('sessions')).toBe(String(bar * 10));
  await expect(list).toHaveAttribute('data-depth', String(bar * 10));
  await expect(list.getByTestId('pager-info')).toHaveAttribute('data-total', String(inBar));
  await list.getByTestId('drilldown-close').click();
  await expect(list).toHaveCount(0);
  expect(routeParams(page).has('sessions')).toBe(false);
});

test('a density cell opens the episodes it counts, with a way back to every position', async ({
  app,
  page,
}) => {
  await app.open(`/failures/visualization?${view()}`);
  const card = await expectChartWithData(page, 'error-density');
  // The map above draws its canvas last; only then does the table below stand still for a
  // click (a layout shift between aiming and clicking makes the click miss the link).
  await expect(page.getByTestId('chart-error-map').locator('canvas').first()).toBeVisible();
  const rows = await tableRows(card);
  const first = rows.first();
  const count = Number((await first.locator('td').nth(2).textContent())?.replace(/\D/g, ''));
  expect(count).toBeGreaterThan(0);
  await first.getByRole('link').click();

  await expectRoute(page, /^\/failures\/history\?/);
  expectSamePeriod(page);
  expect(routeParams(page).get('cell')).toMatch(/^\d+,\d+$/);
  // The list holds exactly the episodes the cell counted; the filter says where they lie.
  await expect(page.getByTestId('pager-info')).toHaveAttribute('data-total', String(count));
  const chip = page.getByTestId('error-history-cell-filter');
  await expect(chip).toContainText(/x .+ m, y .+ m/);
  await page.getByTestId('error-history-cell-filter-clear').click();
  await expect(chip).toHaveCount(0);
  expect(routeParams(page).get('cell')).toBeNull();
  await expect
    .poll(async () => Number(await page.getByTestId('pager-info').getAttribute('data-total')))
    .toBeGreaterThan(count);
});

test("a workflow's cycle-time bar opens the finished orders it counts", async ({ app, page }) => {
  await app.open(`/processes/workflows?${view()}`);
  const card = await expectChartWithData(page, 'workflows');
  const workflow = (await (await tableRows(card)).first().locator('td').nth(0).textContent()) ?? '';
  await app.open(`/processes/workflows?${view()}&workflow=${encodeURIComponent(workflow)}`);
  const drilldown = page.getByTestId('drilldown-workflow');
  const histogram = await expectChartWithData(page, 'workflow-histogram');
  const rows = await tableRows(histogram);
  // The fullest bucket of the period: its row's count of the period (second column).
  const counts = await columnCounts(rows, 1);
  const fullest = counts.indexOf(Math.max(...counts));
  expect(counts[fullest]).toBeGreaterThan(0);
  await rows.nth(fullest).getByRole('link').click();

  await expect.poll(() => routeParams(page).get('cycleBucket')).toMatch(/^\d+$/);
  expect(routeParams(page).get('outcome')).toBe('finished');
  expectSamePeriod(page);
  await expect(drilldown.getByTestId('pager-info')).toHaveAttribute(
    'data-total',
    String(counts[fullest]),
  );
  // The table above holds the bucket's orders too: the workflow's row, finished ones only.
  const row = page.getByTestId(`workflow-row-${workflow}`).locator('td');
  for (const column of [1, 2]) {
    await expect
      .poll(async () => countOf(await row.nth(column).textContent()))
      .toBe(counts[fullest]);
  }
  await expect(page.getByTestId('workflows-cycle-filter')).toHaveCount(0);
  const chip = drilldown.getByTestId('drilldown-cycle-filter');
  await expect(chip).toContainText(/cycle time/);
  await drilldown.getByTestId('drilldown-cycle-filter-clear').click();
  await expect(chip).toHaveCount(0);
  await expect
    .poll(async () => Number(await drilldown.getByTestId('pager-info').getAttribute('data-total')))
    .toBeGreaterThan(counts[fullest] ?? 0);
});

/** The sum of a numeric column (0-based) of the workflows table. */
async function workflowsColumnSum(page: Page, column: number): Promise<number> {
  const table = page.getByTestId('workflows-table');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  const texts = await table.locator(`tbody tr td:nth-child(${column + 1})`).allTextContents();
  return texts.reduce((sum, text) => sum + countOf(text), 0);
}

test('an orders heatmap row or cell opens the workflows of the finished orders it counts', async ({
  app,
  page,
}) => {
  await app.open(`/productivity/analysis?${view()}`);
  const card = await expectChartWithData(page, 'ordersHeatmap');
  const rows = await tableRows(card);
  // The heatmap's table: a row per weekday (Monday first), 24 hour columns, the total last.
  // Yesterday's row: its orders are all in (today's grow while the fleet runs).
  const weekday = (new Date(`${berlinDay(-1)}T00:00:00Z`).getUTCDay() + 6) % 7;
  const cells = (await rows.nth(weekday).locator('td').allTextContents()).slice(1);
  const counts = cells.map(countOf);
  expect(counts).toHaveLength(25);
  const total = counts.at(-1) ?? 0;
  expect(total).toBeGreaterThan(0);
  await rows.nth(weekday).getByRole('link').click();

  await expectRoute(page, /^\/processes\/workflows\?/);
  expectSamePeriod(page);
  expect(routeParams(page).get('heatmapCell')).toBe(String(weekday));
  expect(routeParams(page).get('outcome')).toBe('finished');
  const chip = page.getByTestId('workflows-cell-filter');
  await expect(chip).toContainText('Orders ended:');
  // The workflows' finished orders are the row's: the table's finished column adds up to it.
  await expect.poll(() => workflowsColumnSum(page, 2)).toBe(total);

  // One cell (the row's fullest hour), as its link gives it: that hour's orders alone.
  const hour = counts.slice(0, 24).indexOf(Math.max(...counts.slice(0, 24)));
  await app.open(`/processes/workflows?${view()}&heatmapCell=${weekday},${hour}&outcome=finished`);
  await expect(chip).toContainText(`${String(hour).padStart(2, '0')}:00`);
  await expect.poll(() => workflowsColumnSum(page, 2)).toBe(counts[hour]);

  await page.getByTestId('workflows-cell-filter-clear').click();
  await expect(chip).toHaveCount(0);
  expect(routeParams(page).get('heatmapCell')).toBeNull();
  await expect.poll(() => workflowsColumnSum(page, 2)).toBeGreaterThanOrEqual(total);
});

test('a Processes cycle-time bar opens the workflows of the finished orders it counts', async ({
  app,
  page,
}) => {
  // Yesterday alone: its orders are all in, so the bar and the table count the same orders.
  const yesterday = `mode=day&from=${berlinDay(-1)}&to=${berlinDay(-1)}&vehicles=all&shift=all&combined=false`;
  await app.open(`/processes/analysis?${yesterday}`);
  const rows = await tableRows(await expectChartWithData(page, 'cycle-histogram'));
  const counts = await columnCounts(rows, 1);
  const fullest = counts.indexOf(Math.max(...counts));
  expect(counts[fullest]).toBeGreaterThan(0);
  await rows.nth(fullest).getByRole('link').click();

  await expectRoute(page, /^\/processes\/workflows\?/);
  expect(routeParams(page).get('cycleBucket')).toMatch(/^\d+$/);
  expect(routeParams(page).get('outcome')).toBe('finished');
  await expect(page.getByTestId('workflows-cycle-filter')).toContainText(/cycle time/);
  // Every order of the table is a finished one of the bar's bucket, and all of them are there.
  await expect.poll(() => workflowsColumnSum(page, 1)).toBe(counts[fullest]);
  await expect.poll(() => workflowsColumnSum(page, 2)).toBe(counts[fullest]);
});
