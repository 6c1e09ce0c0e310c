import { describe, expect, it } from 'vitest';
import { contrastRatio, MIN_TEXT_CONTRAST, readableOn } from './contrast';

describe('contrastRatio', () => {
  it('matches the WCAG figures computed by hand', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    // Mantine's gray-6 on white: the 3.32 axe-core reported for the dimmed texts.
    expect(contrastRatio('#868e96', '#ffffff')).toBeCloseTo(3.32, 2);
    expect(contrastRatio('#ffffff', '#868e96')).toBeCloseTo(3.32, 2);
  });
});

describe('readableOn', () => {
  it('keeps a colour that already reads', () => {
    expect(readableOn('#495057', ['#ffffff'])).toBe('#495057');
  });

  it('darkens a colour until it reads on every background', () => {
    const backgrounds = ['#ffffff', '#f4f6f9'];
    const grey = readableOn('#868e96', backgrounds);
    expect(grey).not.toBe('#868e96');
    for (const background of backgrounds) {
      expect(contrastRatio(grey, background)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    }
    // The lightest such shade: one step lighter would not read on the page background.
    expect(contrastRatio(grey, '#f4f6f9')).toBeLessThan(MIN_TEXT_CONTRAST + 0.5);
  });

  it('works as a background under white text', () => {
    const green = readableOn('#2f9e44', ['#ffffff']);
    expect(contrastRatio('#ffffff', green)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
  });
});
