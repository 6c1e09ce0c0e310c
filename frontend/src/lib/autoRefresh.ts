/**
 * Auto-refresh of the page's data (product.md section 4): off or every 1, 5 or 15 minutes,
 * chosen per browser; a wall screen in display mode always refreshes: at the chosen
 * interval, or every minute where "off" was chosen.
 */
export const AUTO_REFRESH_MINUTES = [0, 1, 5, 15] as const;
export type AutoRefreshMinutes = (typeof AUTO_REFRESH_MINUTES)[number];

/** Display mode's interval when none is chosen: nobody is there to press refresh. */
export const DISPLAY_MODE_REFRESH_MINUTES: AutoRefreshMinutes = 1;

const STORAGE_KEY = 'fleetscope.autoRefreshMinutes';

export function isAutoRefreshMinutes(value: unknown): value is AutoRefreshMinutes {
  return (AUTO_REFRESH_MINUTES as readonly unknown[]).includes(value);
}

/** The interval in effect: the chosen one, and never off in display mode. */
export function effectiveRefreshMinutes(
  chosen: AutoRefreshMinutes,
  displayMode: boolean,
): AutoRefreshMinutes {
  return displayMode && chosen === 0 ? DISPLAY_MODE_REFRESH_MINUTES : chosen;
}

export function readStoredRefreshMinutes(): AutoRefreshMinutes {
  try {
    const stored = Number(window.localStorage.getItem(STORAGE_KEY));
    return isAutoRefreshMinutes(stored) ? stored : 0;
  } catch {
    return 0;
  }
}

export function storeRefreshMinutes(minutes: AutoRefreshMinutes): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, String(minutes));
  } catch {
    // Storage refused (private mode): the choice holds until the page is reloaded.
  }
}

/**
 * Query keys of the page's data: refreshed; the in-tab settings and layout are not. The
 * timer leaves out the statusboard's snapshot: server push keeps it live, without polling.
 */
export function isRefreshedQuery(
  queryKey: readonly unknown[],
  { auto = false }: { auto?: boolean } = {},
): boolean {
  if (auto && queryKey[0] === 'analytics' && queryKey[1] === 'statusboard') {
    return false;
  }
  return ['analytics', 'vehicles', 'sites'].includes(String(queryKey[0]));
}
