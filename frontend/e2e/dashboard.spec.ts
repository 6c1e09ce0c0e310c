import type { Page } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { expectChartWithData } from './support/charts';
import { berlinDay } from './support/filters';
import { expect, expectRoute, test } from './support/fixtures';
import { E2E_USERS } from './support/users';

/**
 * The dashboard's widgets (product.md section 4: KPI tiles plus small charts; each user
 * arranges, adds and removes widgets, saved server-side). The view comes in the link
 * (yesterday and today, which the global setup backfills); this file's user owns its layout.
 */
const user = E2E_USERS.dashboard;
const VIEW = `mode=custom&from=${berlinDay(-1)}&to=${berlinDay(0)}&vehicles=all&shift=all&combined=false`;
const LAYOUT = '/v2/User/dashboard-layout';

test.describe.configure({ mode: 'default' });

test.beforeEach(async ({ app }) => {
  await app.login(user, { language: 'en' });
});

/** Adds a chart through the edit mode's menu (the page must be in edit mode). */
async function addChart(page: Page, chart: string): Promise<void> {
  await page.getByTestId('dashboard-add').click();
  await expect(page.getByTestId('dashboard-add-menu').getByText('Charts')).toBeVisible();
  await page.getByTestId(`dashboard-add-chart-${chart}`).click();
}

test('a user adds charts of the analysis pages, arranges them, and finds them again', async ({
  app,
  page,
}) => {
  await app.open(`/dashboards/dashboard?${VIEW}`);
  // The default: the tiles, no chart.
  await expect(page.getByTestId('kpi-availability').getByTestId('kpi-value')).toHaveText(/\d/);
  await expect(page.locator('[data-testid^="widget-chart-"]')).toHaveCount(0);

  await page.getByTestId('dashboard-edit').click();
  for (const chart of ['timeInState', 'outcomes', 'errorPareto']) {
    await addChart(page, chart);
    await expectChartWithData(page, chart);
  }
  // Offered once: a chart on the dashboard is no longer in the menu.
  await page.getByTestId('dashboard-add').click();
  await expect(page.getByTestId('dashboard-add-chart-outcomes')).toHaveCount(0);
  await expect(page.getByTestId('dashboard-add-chart-charge')).toBeVisible();
  await page.keyboard.press('Escape');
  // Charts in edit mode: their headers hold the move and remove buttons beside table and CSV.
  expect(await seriousViolations(page, '[data-testid="dashboard-widgets"]')).toEqual([]);
  await page.getByTestId('widget-move-up-chart-errorPareto').click();
  await page.getByTestId('widget-remove-chart-timeInState').click();

  // Each change is saved at once, in the order made (polled: the last may be on its way).
  const savedCharts = async () =>
    (await app.read<{ kind: string; chart?: string }[]>(LAYOUT))
      .filter((widget) => widget.kind === 'chart')
      .map((widget) => widget.chart);
  await expect.poll(savedCharts).toEqual(['errorPareto', 'outcomes']);

  await page.reload();
  await expectChartWithData(page, 'errorPareto');
  const charts = await page
    .locator('[data-testid^="widget-chart-"]')
    .evaluateAll((widgets) => widgets.map((widget) => widget.getAttribute('data-testid')));
  expect(charts).toEqual(['widget-chart-errorPareto', 'widget-chart-outcomes']);

  // Back to the default: saved as [], so later defaults apply.
  await page.getByTestId('dashboard-edit').click();
  await page.getByTestId('dashboard-reset').click();
  await expect.poll(() => app.read(LAYOUT)).toEqual([]);
  await expect(page.locator('[data-testid^="widget-chart-"]')).toHaveCount(0);
});

test('a chart on the dashboard drills down as on its page', async ({ app, page }) => {
  await app.open(`/dashboards/dashboard?${VIEW}`);
  await page.getByTestId('dashboard-edit').click();
  await addChart(page, 'errorPareto');
  await page.getByTestId('dashboard-edit').click();
  // The Pareto's table lists the error types; a row opens their history in the same period.
  const pareto = await expectChartWithData(page, 'errorPareto');
  await pareto.getByTestId('chart-table-toggle').click();
  const first = pareto.getByTestId('chart-row-link').first();
  const errorType = (await first.textContent()) ?? '';
  expect(errorType).not.toBe('');
  await first.click();
  await expectRoute(page, /^\/failures\/history\?/);
  const hash = new URL(page.url()).hash;
  const params = new URLSearchParams(hash.slice(hash.indexOf('?') + 1));
  expect(params.get('errorType')).toBe(errorType);
  expect(params.get('from')).toBe(berlinDay(-1));
  expect(params.get('to')).toBe(berlinDay(0));

  await app.open(`/dashboards/dashboard?${VIEW}`);
  await page.getByTestId('dashboard-edit').click();
  await page.getByTestId('dashboard-reset').click();
  await expect.poll(() => app.read(LAYOUT)).toEqual([]);
});

test('a chart takes two rows of the grid, and the tiles after it fill the place beside it', async ({
  app,
  page,
}) => {
  const tile = (name: string) => ({ id: name, kind: 'kpi', tile: name });
  await app.put(LAYOUT, [
    tile('availability'),
    { id: 'chart-outcomes', kind: 'chart', chart: 'outcomes' },
    tile('utilization'),
    tile('throughput'),
  ]);
  await app.open(`/dashboards/dashboard?${VIEW}`);
  await expectChartWithData(page, 'outcomes');
  const box = async (id: string) => {
    const found = await page.getByTestId(`widget-${id}`).boundingBox();
    if (!found) {
      throw new Error(`widget ${id} is not shown`);
    }
    return found;
  };
  // Three columns at this width: availability and throughput stacked left of the chart.
  const [chart, first, below] = await Promise.all([
    box('chart-outcomes'),
    box('availability'),
    box('throughput'),
  ]);
  expect(first.x).toBeLessThan(chart.x);
  expect(below.x).toBe(first.x);
  expect(first.y).toBe(chart.y);
  expect(below.y + below.height).toBeCloseTo(chart.y + chart.height, 0);

  await app.put(LAYOUT, []);
});

test("the fleet-now chart counts every vehicle by its state, live, and opens the statusboard at a state's vehicles", async ({
  app,
  page,
}) => {
  const vehicles = await app.vehicles();
  await app.open(`/dashboards/dashboard?${VIEW}`);
  await page.getByTestId('dashboard-edit').click();
  await addChart(page, 'fleetNow');
  await page.getByTestId('dashboard-edit').click();
  const card = await expectChartWithData(page, 'fleetNow');
  await expect(card.getByTestId('live-indicator')).toHaveAttribute('data-status', 'live');
  await card.getByTestId('chart-table-toggle').click();
  const rows = card.getByTestId('chart-table').locator('tbody tr');
  // Every state of the statusboard, the vehicles of the view counted once each.
  await expect(rows).toHaveCount(6);
  const counts = await rows.locator('td:nth-child(2)').allTextContents();
  expect(counts.reduce((sum, count) => sum + Number(count.replace(/\D/g, '')), 0)).toBe(
    vehicles.length,
  );
  // A state's row opens the statusboard showing the vehicles in that state alone.
  const busiest = counts.findIndex((count) => Number(count.replace(/\D/g, '')) > 0);
  await card.getByTestId('chart-row-link').nth(busiest).click();
  await expectRoute(page, /^\/dashboards\/statusboard\?/);
  const state = new URL(page.url().replace('/#/', '/')).searchParams.get('state') ?? '';
  const counted = page.getByTestId(`state-count-${state}`);
  await expect(counted).toHaveAttribute('aria-pressed', 'true');
  const tiles = page.getByTestId('status-tiles').locator('[data-testid^="status-tile-"]');
  await expect
    .poll(async () => String(await tiles.count()))
    .toBe((await counted.getAttribute('data-count')) ?? '');
  // Pressed again: every vehicle.
  await counted.click();
  await expect(tiles).toHaveCount(vehicles.length);

  await app.open(`/dashboards/dashboard?${VIEW}`);
  await page.getByTestId('dashboard-edit').click();
  await page.getByTestId('dashboard-reset').click();
  await expect.poll(() => app.read(LAYOUT)).toEqual([]);
});
