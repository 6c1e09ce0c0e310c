import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { clearResponseCache } from '../../api/client';
import { isDisplayModeRequested } from '../../app/layout';
import {
  type AutoRefreshMinutes,
  effectiveRefreshMinutes,
  isRefreshedQuery,
  readStoredRefreshMinutes,
  storeRefreshMinutes,
} from '../../lib/autoRefresh';
import { RefreshContext, type RefreshControls } from './refreshContext';

/**
 * Refresh of the page's data: the request cache is cleared (spec section 9) and every
 * query of the page asks the server again; `onRefresh` lets the filters read the clock
 * anew (a relative range such as "today" moves on at midnight). Auto-refresh runs the same
 * at the chosen interval, always in display mode.
 */
export function RefreshProvider({
  children,
  onRefresh,
}: {
  children: ReactNode;
  onRefresh: () => void;
}) {
  const queryClient = useQueryClient();
  const location = useLocation();
  const displayMode = isDisplayModeRequested(location.search, window.location.search);
  const [chosenMinutes, setChosen] = useState<AutoRefreshMinutes>(readStoredRefreshMinutes);
  const [refreshing, setRefreshing] = useState(false);
  const [refreshedAt, setRefreshedAt] = useState<Date | null>(null);
  const minutes = effectiveRefreshMinutes(chosenMinutes, displayMode);

  const reload = useCallback(
    async (auto: boolean) => {
      setRefreshing(true);
      clearResponseCache();
      onRefresh();
      try {
        // Active queries load again now, inactive ones when they are next shown.
        await queryClient.invalidateQueries({
          predicate: (query) => isRefreshedQuery(query.queryKey, { auto }),
        });
      } finally {
        setRefreshing(false);
        setRefreshedAt(new Date());
      }
    },
    [queryClient, onRefresh],
  );
  const refresh = useCallback(() => reload(false), [reload]);

  // The timer keeps one interval; it calls the newest refresh.
  const latestReload = useRef(reload);
  latestReload.current = reload;
  useEffect(() => {
    if (minutes === 0) {
      return undefined;
    }
    const timer = window.setInterval(() => void latestReload.current(true), minutes * 60_000);
    return () => window.clearInterval(timer);
  }, [minutes]);

  const value = useMemo<RefreshControls>(
    () => ({
      refresh,
      refreshing,
      refreshedAt,
      minutes,
      displayMode,
      setChosenMinutes: (next) => {
        setChosen(next);
        storeRefreshMinutes(next);
      },
    }),
    [refresh, refreshing, refreshedAt, minutes, displayMode],
  );
  return <RefreshContext.Provider value={value}>{children}</RefreshContext.Provider>;
}
