import { DESKTOP_BREAKPOINT_PX } from '../constants';

/** Pure layout rules of spec section 2 (shell layout) and section 9 (layout constants). */
export function isDesktopWidth(width: number): boolean {
  return width >= DESKTOP_BREAKPOINT_PX;
}

export function isDisplayModeRequested(search: string): boolean {
  return new URLSearchParams(search).get('displayMode') === 'true';
}

export type NavigationKind = 'side' | 'mobile' | 'hidden';

/** Side navigation on desktop, hidden there in display mode; mobile always keeps its menu. */
export function navigationKind({
  width,
  search,
}: {
  width: number;
  search: string;
}): NavigationKind {
  if (!isDesktopWidth(width)) {
    return 'mobile';
  }
  return isDisplayModeRequested(search) ? 'hidden' : 'side';
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
