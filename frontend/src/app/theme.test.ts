import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { STATE_COLORS, STATE_TEXT_COLORS, VEHICLE_STATES } from '../components/charts/theme';
import { contrastRatio, MIN_TEXT_CONTRAST } from './contrast';
import { accessibleColorVariables, TEXT_SURFACES, theme } from './theme';

const palette = { ...DEFAULT_THEME.colors, ...theme.colors } as Record<string, readonly string[]>;
const variables = accessibleColorVariables(palette);
const names = Object.keys(palette).filter((name) => name !== 'dark');

function variable(name: string): string {
  const value = variables[name];
  if (!value) {
    throw new Error(`no ${name}`);
  }
  return value;
}

describe('accessible colour variables (light scheme)', () => {
  it('darken dimmed text until it reads on every surface', () => {
    const dimmed = variable('--mantine-color-dimmed');
    expect(contrastRatio(DEFAULT_THEME.colors.gray[6], '#ffffff')).toBeLessThan(MIN_TEXT_CONTRAST);
    for (const surface of TEXT_SURFACES) {
      expect(contrastRatio(dimmed, surface)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    }
  });

  it('darken placeholders until they read on every surface', () => {
    const placeholder = variable('--mantine-color-placeholder');
    expect(contrastRatio(DEFAULT_THEME.colors.gray[5], '#ffffff')).toBeLessThan(MIN_TEXT_CONTRAST);
    for (const surface of TEXT_SURFACES) {
      expect(contrastRatio(placeholder, surface)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    }
  });

  it.each(names)('%s: text, light badge and filled element meet 4.5:1', (name) => {
    const shades = palette[name] ?? [];
    for (const surface of TEXT_SURFACES) {
      expect(
        contrastRatio(variable(`--mantine-color-${name}-text`), surface),
      ).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    }
    expect(
      contrastRatio(variable(`--mantine-color-${name}-light-color`), shades[1] ?? ''),
    ).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(
      contrastRatio('#ffffff', variable(`--mantine-color-${name}-filled`)),
    ).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
  });

  it('keep colours that already read (the theme stays recognisable)', () => {
    // Blue 9 on blue 1 already reads: the light badge keeps Mantine's colour.
    expect(variable('--mantine-color-blue-light-color')).toBe(DEFAULT_THEME.colors.blue[9]);
    // The brand teal of buttons gets only as dark as white text needs.
    const filled = variable('--mantine-color-brand-filled');
    expect(contrastRatio('#ffffff', filled)).toBeLessThan(MIN_TEXT_CONTRAST + 0.5);
  });
});

describe('statusboard tiles', () => {
  it.each(VEHICLE_STATES)('%s: the tile text reads on the state colour', (state) => {
    expect(contrastRatio(STATE_TEXT_COLORS[state], STATE_COLORS[state])).toBeGreaterThanOrEqual(
      MIN_TEXT_CONTRAST,
    );
  });
});
