import { createContext, useContext } from 'react';
import type { AutoRefreshMinutes } from '../../lib/autoRefresh';

export interface RefreshControls {
  /** Clears the request cache and reloads the page's data (the spec's "refresh request"). */
  refresh: () => Promise<void>;
  refreshing: boolean;
  /** When the data was last reloaded by refresh (null: not yet). */
  refreshedAt: Date | null;
  /** The interval in effect (display mode never refreshes less than every minute). */
  minutes: AutoRefreshMinutes;
  displayMode: boolean;
  setChosenMinutes: (minutes: AutoRefreshMinutes) => void;
}

export const RefreshContext = createContext<RefreshControls | null>(null);

export function useRefresh(): RefreshControls {
  const value = useContext(RefreshContext);
  if (!value) {
    throw new Error('useRefresh must be used inside RefreshProvider (the shell)');
  }
  return value;
}
