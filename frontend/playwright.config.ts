import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium against one real Fleetscope server (started by
 * e2e/global-setup.ts with fresh demo data). `npm run e2e` runs them; `npm run screenshots`
 * refreshes the README screenshots in docs/screenshots/ (not part of the default run).
 */
const inCi = process.env.CI === 'true';
const screenshots = process.env.E2E_SCREENSHOTS === '1';

const chromium = {
  ...devices['Desktop Chrome'],
  viewport: { width: 1280, height: 800 },
  locale: 'en-GB',
  timezoneId: 'Europe/Berlin',
  // Charts are drawn at once, not grown in over a second: what the tests read is final when
  // it appears, and two browsers on two cores are not kept busy drawing frames.
  reducedMotion: 'reduce' as const,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--disable-gpu', '--disable-quic'],
  },
};

export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 2,
  retries: inCi ? 1 : 0,
  forbidOnly: inCi,
  // Generous limits: the machines these run on are small and often shared; a healthy run
  // stays far below them (each test takes a few seconds).
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: inCi ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
  },
  projects: screenshots
    ? [{ name: 'screenshots', testMatch: /screenshots\.ts$/, use: chromium }]
    : [{ name: 'chromium', testMatch: /\.spec\.ts$/, use: chromium }],
});
