import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AnalysisScope } from '../../api/analytics-processes';
import { useAnalysisFilters } from '../filters/filtersContext';
import { useSites } from '../filters/useAppSettings';
import type { ChartStatus } from './ChartCard';
import { emptyReasonFor, shiftRunsIn } from './emptyReason';
import { chartStatus } from './status';

/**
 * One analytics call for the header's filters (TanStack Query over the request chain).
 * Waits for the saved settings and at least one vehicle; the key carries every filter (and
 * `extraKey`, the page's own filters or sort), so a change loads anew, while the last
 * result stays visible (no flicker).
 */
export function useAnalyticsQuery<T>(
  name: string,
  load: (scope: AnalysisScope) => Promise<T>,
  { extraKey = [] }: { extraKey?: readonly unknown[] } = {},
) {
  const filters = useAnalysisFilters();
  const scope: AnalysisScope = {
    from: filters.from,
    to: filters.to,
    hours: filters.hours,
    vehicles: filters.vehicles,
    combined: filters.combined,
    shift: filters.shift,
  };
  const vehicleIds = filters.vehicles.map((vehicle) => vehicle.id).join(',');
  const query = useQuery({
    queryKey: [
      'analytics',
      name,
      filters.from,
      filters.to,
      filters.hours,
      vehicleIds,
      filters.combined,
      filters.shift,
      ...extraKey,
    ],
    queryFn: () => load(scope),
    enabled: filters.ready && filters.vehicles.length > 0,
    placeholderData: keepPreviousData,
  });
  const noVehicles = filters.ready && filters.vehicles.length === 0;
  const sites = useSites().data ?? [];
  const selectedSites = new Set(filters.vehicles.map((vehicle) => vehicle.siteId));
  const emptyReason = emptyReasonFor({
    vehicleCount: filters.vehicles.length,
    shift: filters.shift,
    // Until the sites are read, an empty result is told as a period without data.
    shiftRuns:
      sites.length === 0 ||
      shiftRunsIn({
        shift: filters.shift,
        sites: sites.filter((site) => selectedSites.has(site.id)),
        from: filters.from,
        to: filters.to,
      }),
  });
  /**
   * The ChartCard status of a chart fed by this call; `isEmpty` judges the loaded data, and
   * `reported`, where the answer tells, whether the vehicles reported in the period: an empty
   * chart then says that nothing of the kind happened, not that no data came.
   */
  const statusFor = (isEmpty: (data: T) => boolean, reported?: (data: T) => boolean): ChartStatus =>
    chartStatus({
      isPending: !noVehicles && query.isPending,
      error: query.error,
      isEmpty: noVehicles || (query.data !== undefined && isEmpty(query.data)),
      emptyReason:
        !noVehicles && query.data !== undefined && reported?.(query.data)
          ? 'noEvents'
          : emptyReason,
      onRetry: () => void query.refetch(),
    });
  return { query, scope, filters, emptyReason, statusFor };
}
