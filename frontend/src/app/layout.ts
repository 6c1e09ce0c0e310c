import { DESKTOP_BREAKPOINT_PX } from '../constants';

/** Pure layout rules of spec section 2 (shell layout) and section 9 (layout constants). */
export function isDesktopWidth(width: number): boolean {
  return width >= DESKTOP_BREAKPOINT_PX;
}

/**
 * `displayMode=true` may stand in the hash route's query (`#/dashboards?displayMode=true`)
 * or in the page's own query before the hash (`/?displayMode=true#/dashboards`).
 */
export function isDisplayModeRequested(...searches: string[]): boolean {
  return searches.some((search) => new URLSearchParams(search).get('displayMode') === 'true');
}

export type NavigationKind = 'side' | 'mobile' | 'hidden';

/** Side navigation on desktop, hidden there in display mode; mobile always keeps its menu. */
export function navigationKind({
  width,
  search,
  pageSearch,
}: {
  width: number;
  search: string;
  pageSearch?: string;
}): NavigationKind {
  if (!isDesktopWidth(width)) {
    return 'mobile';
  }
  return isDisplayModeRequested(search, pageSearch ?? '') ? 'hidden' : 'side';
}

/** On mobile and tablet the page height is the window's inner height (browser bars excluded). */
export function pageHeight({
  width,
  innerHeight,
}: {
  width: number;
  innerHeight: number;
}): number | null {
  return isDesktopWidth(width) ? null : innerHeight;
}
