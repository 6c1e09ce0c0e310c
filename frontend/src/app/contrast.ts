import { darken, luminance } from '@mantine/core';

/** WCAG 2 AA for normal text (axe-core's `color-contrast` rule). */
export const MIN_TEXT_CONTRAST = 4.5;

/** The WCAG contrast ratio of two colours (1 to 21), order does not matter. */
export function contrastRatio(first: string, second: string): number {
  const [lighter, darker] = [luminance(first), luminance(second)].sort((a, b) => b - a) as [
    number,
    number,
  ];
  return (lighter + 0.05) / (darker + 0.05);
}

const DARKEN_STEP = 0.04;

/**
 * `color` itself when it reads on every background, else the lightest darker shade of it
 * that does (in steps of 4 %): the hue stays, only the lightness gives way.
 */
export function readableOn(
  color: string,
  backgrounds: readonly string[],
  minimum = MIN_TEXT_CONTRAST,
): string {
  for (let step = 0; step * DARKEN_STEP < 1; step += 1) {
    const candidate = step === 0 ? color : darken(color, step * DARKEN_STEP);
    if (backgrounds.every((background) => contrastRatio(candidate, background) >= minimum)) {
      return candidate;
    }
  }
  return '#000000';
}
