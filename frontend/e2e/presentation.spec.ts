import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { backfilledSelection } from './support/filters';
import { type App, expect, test } from './support/fixtures';
import type { Language } from './support/i18n';
import { E2E_USERS } from './support/users';

/**
 * Presentation at the widths people use (1440 and 1920 px desktops, a 390 px phone) in
 * English and German: KPI tiles and level badges show their whole text, and the German CSV
 * of a chart and of the error history are written alike (";", decimal comma, site times).
 */
const user = E2E_USERS.presentation;

async function loginIn(app: App, language: Language): Promise<void> {
  await app.login(user, { language });
  await app.patchSettings(backfilledSelection({ combined: false }));
}

/** Texts inside `root` that are cut: content wider than the box, or an active ellipsis. */
async function cutTexts(root: Locator): Promise<string[]> {
  return root.evaluateAll((elements) =>
    elements.flatMap((element) => {
      const box = element as HTMLElement;
      const style = getComputedStyle(box);
      const overflows = box.scrollWidth > box.clientWidth + 1;
      const hides = style.overflow !== 'visible' || style.textOverflow === 'ellipsis';
      return overflows && hides && box.clientWidth > 0 ? [box.textContent ?? ''] : [];
    }),
  );
}

async function expectNothingCut(page: Page, selector: string, what: string): Promise<void> {
  const texts = page.locator(selector);
  await expect(texts.first()).toBeVisible();
  expect(await cutTexts(texts), what).toEqual([]);
}

const TILE_TEXTS = [
  '[data-testid="kpi-label"]',
  '[data-testid="kpi-value"]',
  '[data-testid="kpi-trend"]',
  '[data-testid="kpi-trend"] *',
].join(', ');

for (const width of [1440, 1920, 390]) {
  test(`KPI tiles and level badges are whole at ${width} px in English and German`, async ({
    app,
    page,
  }) => {
    await page.setViewportSize({ width, height: width < 500 ? 844 : 1000 });
    for (const language of ['en', 'de'] as const) {
      await loginIn(app, language);
      await app.open('/failures/analysis');
      await expect(page.getByTestId('kpi-fatal-per-1000').getByTestId('kpi-value')).toHaveText(
        /\d/,
      );
      await expectNothingCut(page, TILE_TEXTS, `failure tiles, ${language}, ${width} px`);

      await app.open('/dashboards/dashboard');
      await expect(page.getByTestId('kpi-meanCharge').getByTestId('kpi-value')).toHaveText(/\d/);
      await expectNothingCut(page, TILE_TEXTS, `dashboard tiles, ${language}, ${width} px`);

      await app.open('/failures/history');
      await expect(page.locator('[data-testid="level-badge"]').first()).toBeVisible();
      await expectNothingCut(
        page,
        '[data-testid="level-badge"], [data-testid="level-badge"] *',
        `level badges, ${language}, ${width} px`,
      );
      // The header's machine selector chooses the vehicles; the list has no second one.
      await expect(page.getByTestId('filter-vehicle')).toHaveCount(0);
    }
  });
}

test('the statusboard offers only the machine selector', async ({ app, page }) => {
  await loginIn(app, 'en');
  await app.open('/dashboards/statusboard');
  await expect(page.getByTestId('machine-selector')).toBeVisible();
  for (const control of ['date-selector', 'shift-selector', 'combined-switch', 'filters-reset']) {
    await expect(page.getByTestId(control)).toHaveCount(0);
  }
});

/** The header and first data row of a downloaded CSV (the text without byte order mark). */
async function download(page: Page, trigger: Locator): Promise<string> {
  const file = page.waitForEvent('download');
  await trigger.click();
  return readFileSync(await (await file).path(), 'utf8');
}

/** Fields of one CSV line split at `separator`, honouring RFC 4180 quotes. */
function fields(line: string, separator: string): string[] {
  const result: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (quoted && char === '"' && line[index + 1] === '"') {
      field += '"';
      index += 1;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (char === separator && !quoted) {
      result.push(field);
      field = '';
    } else {
      field += char;
    }
  }
  return [...result, field];
}

const SITE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

test('the German CSV of a chart and of the error history use the same separators and site times', async ({
  app,
  page,
}) => {
  await loginIn(app, 'de');
  await app.open('/failures/visualization');
  const map = page.getByTestId('chart-error-map');
  await expect(map).toHaveAttribute('data-status', 'ready');
  const chartCsv = await download(page, map.getByTestId('csv-export'));

  await app.open('/failures/history');
  await expect(page.getByTestId('pager-info')).not.toHaveAttribute('data-total', '0');
  const historyCsv = await download(page, page.getByTestId('error-history-csv'));

  for (const [name, csv] of [
    ['chart', chartCsv],
    ['history', historyCsv],
  ] as const) {
    expect(csv.startsWith('\uFEFF'), `${name}: byte order mark`).toBe(true);
    const [header = '', first = ''] = csv.replace(/^\uFEFF/, '').split('\r\n');
    const columns = fields(header, ';');
    const cells = fields(first, ';');
    expect(columns.length, `${name}: ";" separates the header`).toBeGreaterThan(3);
    expect(cells.length, `${name}: ";" separates the rows`).toBe(columns.length);
    // Times in the site's zone, named in the header, the same form in both files.
    const start = columns.findIndex((column) => column.endsWith('(Europe/Berlin)'));
    expect(start, `${name}: a time column names the zone`).toBeGreaterThanOrEqual(0);
    expect(cells[start], `${name}: site time`).toMatch(SITE_TIME);
    // Numbers with the decimal comma: x in metres is never written with a point.
    const x = columns.indexOf('x (m)');
    expect(cells[x], `${name}: x (m)`).toMatch(/^-?\d+(,\d+)?$/);
  }
});
