import { expect, type Locator, type Page } from '@playwright/test';
import { text } from './i18n';

/**
 * Reading the analysis pages: chart cards (status, table view) and KPI tiles, through the
 * test ids of frontend/README.md.
 */

/** A chart card that finished loading with data (not loading, empty or failed). */
export async function expectChartWithData(page: Page, name: string): Promise<Locator> {
  const card = page.getByTestId(`chart-${name}`);
  await expect(card).toHaveAttribute('data-status', 'ready');
  await expect(card.getByTestId('chart-empty')).toHaveCount(0);
  return card;
}

/** A KPI tile that shows a value, not the "no data" text. */
export async function expectKpiWithData(page: Page, name: string): Promise<void> {
  const value = page.getByTestId(`kpi-${name}`).getByTestId('kpi-value');
  await expect(value).toHaveText(/\d/);
  await expect(value).not.toHaveText(text('en', 'charts.noValue'));
}

/** Switches the card to its table view (it must hold data). */
async function showTable(card: Locator): Promise<void> {
  if ((await card.getAttribute('data-view')) !== 'table') {
    await card.getByTestId('chart-table-toggle').click();
  }
  await expect(card).toHaveAttribute('data-view', 'table');
}

/** Rows of the card's table view (switches the card to the table). */
export async function tableRowCount(card: Locator): Promise<number> {
  await showTable(card);
  const rows = card.getByTestId('chart-table').locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  return rows.count();
}

/**
 * What the card shows, as text: its table view when it holds data, else its status
 * (`(empty)`, `(error)`). Meant for `expect.poll`: it fails while the card is loading.
 */
export async function shownData(card: Locator): Promise<string> {
  await expect(card).not.toHaveAttribute('data-status', 'loading', { timeout: 1_000 });
  // The status and the toggle in one read: a render between two reads would mix two states
  // (a card turning from `ready` to `empty` read as ready without rows).
  const { status, withRows } = await card.evaluate((element) => ({
    status: element.getAttribute('data-status'),
    withRows: element.querySelector('[data-testid="chart-table-toggle"]:not(:disabled)') !== null,
  }));
  if (status !== 'ready') {
    return `(${status})`;
  }
  if (!withRows) {
    return '(no rows)';
  }
  await showTable(card);
  const cells = await card.getByTestId('chart-table').locator('th, td').allTextContents();
  return cells.join('\t');
}
