import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { loadSettings } from '../../api/settings';
import type { AppSettings } from '../../api/types';
import { loadSites, loadVehicles } from '../../api/vehicles';
import { normalizeSettings } from '../../lib/filters';

export const SETTINGS_QUERY_KEY = ['user-settings'] as const;

/** Saved user app settings, loaded once at start-up (spec section 4). */
export function useAppSettings() {
  return useQuery({
    queryKey: SETTINGS_QUERY_KEY,
    queryFn: async () => normalizeSettings(await loadSettings()),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Local update of the loaded settings after a successful (or optimistic) save. */
export function useUpdateSettingsCache() {
  const client = useQueryClient();
  return useCallback(
    (update: (settings: AppSettings) => AppSettings) => {
      client.setQueryData<AppSettings>(SETTINGS_QUERY_KEY, (current) =>
        current ? update(current) : current,
      );
    },
    [client],
  );
}

export function useVehicles() {
  return useQuery({
    queryKey: ['vehicles'],
    queryFn: loadVehicles,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useSites() {
  return useQuery({ queryKey: ['sites'], queryFn: loadSites });
}
