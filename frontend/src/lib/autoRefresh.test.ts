import { describe, expect, it } from 'vitest';
import { effectiveRefreshMinutes, isRefreshedQuery } from './autoRefresh';

describe('auto-refresh', () => {
  it('is never off in display mode', () => {
    expect(effectiveRefreshMinutes(0, false)).toBe(0);
    expect(effectiveRefreshMinutes(0, true)).toBe(1);
    expect(effectiveRefreshMinutes(15, true)).toBe(15);
    expect(effectiveRefreshMinutes(5, false)).toBe(5);
  });

  it("reloads the page's data, not the settings held in the tab", () => {
    expect(isRefreshedQuery(['analytics', 'productivity', '2026-11-25'])).toBe(true);
    expect(isRefreshedQuery(['vehicles'])).toBe(true);
    expect(isRefreshedQuery(['user-settings'])).toBe(false);
    expect(isRefreshedQuery(['dashboardLayout'])).toBe(false);
  });

  it('leaves the live statusboard to server push, unless refreshed by hand', () => {
    expect(isRefreshedQuery(['analytics', 'statusboard', '1,2'], { auto: true })).toBe(false);
    expect(isRefreshedQuery(['analytics', 'statusboard', '1,2'])).toBe(true);
    expect(isRefreshedQuery(['analytics', 'dashboard'], { auto: true })).toBe(true);
  });
});
