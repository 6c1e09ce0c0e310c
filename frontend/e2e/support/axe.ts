import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Waits until every finite CSS transition and animation has ended: a drawer or overlay still
 * fading in has colours between its own and the page's, which axe would measure instead.
 */
async function transitionsEnded(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** The critical and serious axe-core violations on the page (or inside `include`), readable. */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  await transitionsEnded(page);
  const builder = new AxeBuilder({ page });
  const results = await (include ? builder.include(include) : builder).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map((violation) => {
      const where = violation.nodes.slice(0, 3).map((node) => node.target.join(' '));
      return `${violation.id} (${violation.impact}, ${violation.nodes.length}×): ${where.join(' | ')}`;
    });
}
