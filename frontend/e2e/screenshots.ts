import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './support/fixtures';
import { DEMO_USERS } from './support/users';

/**
 * README screenshots (desktop 1440x900, English), run on demand with `npm run screenshots`
 * (a demo server with fourteen days of simulated history, so that this week is compared
 * with the last); not part of the default test run.
 * Output: docs/screenshots/*.png.
 */
const outDir = join(dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');

test.use({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });

test.beforeAll(() => {
  mkdirSync(outDir, { recursive: true });
});

/** Waits until the page has its data: no skeleton or loader left, charts drawn. */
async function settle(page: import('@playwright/test').Page): Promise<void> {
  await expect(page.getByTestId('filter-bar')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.mantine-Skeleton-root, .mantine-Loader-root')).toHaveCount(0, {
    timeout: 60_000,
  });
  // ECharts animates on its canvas, which the screenshot option does not stop.
  await page.waitForTimeout(1_500);
  await page.mouse.move(1435, 450); // the page's right margin: no tooltip, no hover
  await page.evaluate(async () => {
    (document.activeElement as HTMLElement | null)?.blur();
    await document.fonts.ready;
  });
}

test('dashboard', async ({ app, page }) => {
  await app.login(DEMO_USERS.customer, { language: 'en' });
  await app.open('/dashboards/dashboard');
  await expect(page.getByTestId('page-dashboard')).toBeVisible();
  await settle(page);
  await page.screenshot({ path: join(outDir, 'dashboard.png'), animations: 'disabled' });
});

test('productivity analysis', async ({ app, page }) => {
  await app.login(DEMO_USERS.customer, { language: 'en' });
  await app.open('/productivity/analysis');
  await expect(page.getByTestId('page-productivityAnalysis')).toBeVisible();
  await settle(page);
  await page.screenshot({
    path: join(outDir, 'productivity-analysis.png'),
    animations: 'disabled',
  });
});
