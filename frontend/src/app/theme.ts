import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  darken,
  type MantineColorsTuple,
} from '@mantine/core';
import { readableOn } from './contrast';

/** Fleetscope teal: distinct from the blues of most fleet-management tools. */
const brand: MantineColorsTuple = [
  '#e3fbf8',
  '#cdf3ee',
  '#9de6dc',
  '#69d8c9',
  '#40ccb9',
  '#27c4ae',
  '#14a994',
  '#059683',
  '#008574',
  '#007363',
];

/** The palette shade of filled elements and coloured text in the light scheme. */
const LIGHT_SHADE = 7;

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: LIGHT_SHADE, dark: 5 },
  colors: { brand },
  fontFamily:
    'Inter, "Segoe UI", system-ui, -apple-system, BlinkMacSystemFont, Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  // Menus, drawers and modals open without transitions when the system asks for less motion.
  respectReducedMotion: true,
});

/**
 * Where text sits in the light scheme: cards (white), the page (--fs-page-bg), striped and
 * hovered table rows (gray-0, gray-1).
 */
export const TEXT_SURFACES = [
  '#ffffff',
  '#f4f6f9',
  DEFAULT_THEME.colors.gray[0],
  DEFAULT_THEME.colors.gray[1],
];

const WHITE = '#ffffff';

/**
 * Light-scheme colour variables that meet WCAG AA (4.5:1) wherever Mantine uses them for
 * text, computed from the palette instead of fixed per element: `c="teal"` texts, dimmed
 * texts, links and outlines darken until they read on every surface; light badges darken
 * their text until it reads on their own tint; filled buttons and badges darken until
 * white reads on them; placeholders (an input's hint, or a picker's text before a value is
 * picked) darken until they read too. Colours that already pass keep their value.
 */
export function accessibleColorVariables(palette: Record<string, readonly string[]>) {
  const variables: Record<string, string> = {
    '--mantine-color-dimmed': readableOn(DEFAULT_THEME.colors.gray[6], TEXT_SURFACES),
    '--mantine-color-error': readableOn(DEFAULT_THEME.colors.red[6], TEXT_SURFACES),
    '--mantine-color-placeholder': readableOn(DEFAULT_THEME.colors.gray[5], TEXT_SURFACES),
  };
  for (const [name, shades] of Object.entries(palette)) {
    const [tint, main, deepest] = [shades[1], shades[LIGHT_SHADE], shades[9]];
    if (name === 'dark' || !tint || !main || !deepest) {
      continue;
    }
    const text = readableOn(main, TEXT_SURFACES);
    const filled = readableOn(main, [WHITE]);
    variables[`--mantine-color-${name}-text`] = text;
    variables[`--mantine-color-${name}-outline`] = text;
    variables[`--mantine-color-${name}-light-color`] = readableOn(deepest, [tint]);
    variables[`--mantine-color-${name}-filled`] = filled;
    variables[`--mantine-color-${name}-filled-hover`] = darken(filled, 0.1);
  }
  return variables;
}

export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: {
    ...accessibleColorVariables(resolved.colors),
    '--mantine-color-anchor': 'var(--mantine-color-brand-text)',
  },
  dark: {},
});
