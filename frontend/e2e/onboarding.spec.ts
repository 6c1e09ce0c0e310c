import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { type App, expect, test } from './support/fixtures';
import { type Language, text } from './support/i18n';
import { E2E_USERS } from './support/users';

/**
 * Spec section 2 (onboarding overlay) and section 4 (watched flag): five slides, slide 1
 * text only, slides 2 to 5 with an image per language, next/back/skip/done, and once
 * finished or skipped the tour never comes back. This file owns its user.
 */
const user = E2E_USERS.onboarding;
// One after the other: the tests share this user's onboarding flag and language.
test.describe.configure({ mode: 'default' });
const SLIDES = 5;
const assetsDir = join(dirname(fileURLToPath(import.meta.url)), '../src/assets/onboarding');
/** A distinctive saved period: seeing it in the header proves the settings are loaded. */
const SAVED_DAY = '2024-01-15';

async function startFresh(app: App, language: Language): Promise<void> {
  await app.login(user, { onboardingWatched: false, language });
  await app.patchSettings({
    dateSelector: {
      mode: 'day',
      from: SAVED_DAY,
      to: SAVED_DAY,
      combined: false,
      workflowShift: 'all',
    },
  });
}

/** The page has its saved settings: the onboarding decision has been made. */
async function settingsApplied(page: Page): Promise<void> {
  await expect(page.getByTestId('date-picker')).toHaveAttribute('data-from', SAVED_DAY);
}

async function expectSlide(page: Page, language: Language, number: number): Promise<void> {
  const slide = page.getByTestId(`onboarding-slide-${number}`);
  await expect(slide).toBeVisible();
  await expect(slide.getByTestId('onboarding-headline')).toHaveText(
    text(language, `onboarding.slide${number}.headline`),
  );
  await expect(slide).toContainText(text(language, `onboarding.slide${number}.text`));
  await expect(slide).toContainText(
    text(language, 'onboarding.progress', { current: String(number), total: String(SLIDES) }),
  );

  const first = number === 1;
  const last = number === SLIDES;
  await expect(slide.getByTestId('onboarding-skip')).toHaveCount(first ? 1 : 0);
  await expect(slide.getByTestId('onboarding-back')).toHaveCount(first ? 0 : 1);
  await expect(slide.getByTestId('onboarding-next')).toHaveCount(last ? 0 : 1);
  await expect(slide.getByTestId('onboarding-done')).toHaveCount(last ? 1 : 0);
  const link = slide.getByTestId(first ? 'onboarding-skip' : 'onboarding-back');
  await expect(link).toHaveText(text(language, first ? 'onboarding.skip' : 'onboarding.back'));
  const button = slide.getByTestId(last ? 'onboarding-done' : 'onboarding-next');
  await expect(button).toHaveText(text(language, last ? 'onboarding.done' : 'onboarding.next'));

  const images = slide.locator('img');
  if (first) {
    await expect(images).toHaveCount(0);
    return;
  }
  const image = slide.getByTestId(`onboarding-image-${number}`);
  await expect(images).toHaveCount(1);
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute('data-language', language);
  await expect(image).toHaveCSS('max-height', '320px');
  expect(
    await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
  ).toBe(true);
  // The browser shows exactly this language's image file of this slide.
  const src = await image.evaluate((img: HTMLImageElement) => img.currentSrc);
  const served = await (await page.request.get(src)).text();
  expect(served).toBe(readFileSync(join(assetsDir, language, `slide-${number}.svg`), 'utf8'));
}

async function walkThrough(page: Page, language: Language): Promise<string[]> {
  const sources: string[] = [];
  for (let number = 1; number <= SLIDES; number += 1) {
    await expectSlide(page, language, number);
    if (number > 1) {
      sources.push(
        (await page.getByTestId(`onboarding-image-${number}`).getAttribute('src')) ?? '',
      );
    }
    if (number < SLIDES) {
      await page.getByTestId('onboarding-next').click();
    }
  }
  return sources;
}

async function expectNotShownAfterReload(page: Page): Promise<void> {
  await page.reload();
  await expect(page.getByTestId('page-dashboard')).toBeVisible();
  await settingsApplied(page);
  await expect(page.getByTestId('onboarding-overlay')).toHaveCount(0);
}

for (const language of ['en', 'de'] as const) {
  test(`${language}: five slides with next and back, done saves watched for good`, async ({
    app,
    page,
  }) => {
    await startFresh(app, language);
    await app.open('/dashboards/dashboard');
    await expect(page.getByTestId('onboarding-overlay')).toBeVisible();
    await expect(page.getByRole('dialog')).toContainText(text(language, 'onboarding.label'));

    await expectSlide(page, language, 1);
    await page.getByTestId('onboarding-next').click();
    await expectSlide(page, language, 2);
    await page.getByTestId('onboarding-back').click();
    await expectSlide(page, language, 1);

    const sources = await walkThrough(page, language);
    expect(new Set(sources).size).toBe(SLIDES - 1);
    // Back from the last slide, then forward again: nothing is lost on the way.
    await page.getByTestId('onboarding-back').click();
    await expectSlide(page, language, 4);
    await page.getByTestId('onboarding-next').click();

    const saved = page.waitForRequest(
      (request) => request.method() === 'PATCH' && request.url().endsWith('/v2/User/settings'),
    );
    await page.getByTestId('onboarding-done').click();
    expect((await saved).postDataJSON()).toEqual({ onboardingWatched: true });
    await expect(page.getByTestId('onboarding-overlay')).toHaveCount(0);
    await expect.poll(async () => (await app.settings()).onboardingWatched).toBe(true);

    await expectNotShownAfterReload(page);
  });
}

test('the image of a slide follows the language', async ({ app, page }) => {
  await startFresh(app, 'en');
  await app.open('/dashboards/dashboard');
  await page.getByTestId('onboarding-next').click();
  const english = await page.getByTestId('onboarding-image-2').getAttribute('src');

  // German for the same user: the tour starts again from the top with German images.
  await app.patchMe({ language: 'de' });
  await page.reload();
  await expectSlide(page, 'de', 1);
  await page.getByTestId('onboarding-next').click();
  await expectSlide(page, 'de', 2);
  const german = await page.getByTestId('onboarding-image-2').getAttribute('src');
  expect(german).toBeTruthy();
  expect(german).not.toBe(english);
});

test('skip on the first slide also marks the tour as watched', async ({ app, page }) => {
  await startFresh(app, 'en');
  await app.open('/dashboards/dashboard');
  await expectSlide(page, 'en', 1);
  await page.getByTestId('onboarding-skip').click();
  await expect(page.getByTestId('onboarding-overlay')).toHaveCount(0);
  await expect.poll(async () => (await app.settings()).onboardingWatched).toBe(true);
  await expectNotShownAfterReload(page);
});

test('a user who has watched the tour never sees it', async ({ app, page }) => {
  await startFresh(app, 'en');
  await app.patchSettings({ onboardingWatched: true });
  await app.open('/productivity/analysis');
  await expect(page.getByTestId('page-productivityAnalysis')).toBeVisible();
  await settingsApplied(page);
  await expect(page.getByTestId('onboarding-overlay')).toHaveCount(0);
});
