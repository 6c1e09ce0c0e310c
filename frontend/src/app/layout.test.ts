import { describe, expect, it } from 'vitest';
import { isDisplayModeRequested, navigationKind, pageHeight } from './layout';

describe('shell layout rules', () => {
  it('uses side navigation from 1024px and the mobile menu below', () => {
    expect(navigationKind({ width: 1024, search: '' })).toBe('side');
    expect(navigationKind({ width: 1023, search: '' })).toBe('mobile');
  });

  it('hides navigation in display mode on desktop only', () => {
    expect(navigationKind({ width: 1920, search: '?displayMode=true' })).toBe('hidden');
    expect(navigationKind({ width: 800, search: '?displayMode=true' })).toBe('mobile');
    expect(navigationKind({ width: 1920, search: '?displayMode=false' })).toBe('side');
    expect(isDisplayModeRequested('?a=1&displayMode=true')).toBe(true);
    expect(isDisplayModeRequested('?displayMode=TRUE')).toBe(false);
    expect(isDisplayModeRequested('', '?displayMode=true')).toBe(true);
    expect(isDisplayModeRequested('?x=1', '?displayMode=false')).toBe(false);
  });

  it('sets the page height to the inner height on mobile and tablet', () => {
    expect(pageHeight({ width: 390, innerHeight: 664 })).toBe(664);
    expect(pageHeight({ width: 1000, innerHeight: 700 })).toBe(700);
    expect(pageHeight({ width: 1280, innerHeight: 800 })).toBeNull();
  });
});
