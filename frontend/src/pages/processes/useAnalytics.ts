import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AnalysisScope } from '../../api/analytics-processes';
import { type ChartStatus, chartStatus, emptyReasonFor } from '../../components/charts';
import { useAnalysisFilters } from '../../components/filters/filtersContext';

/**
 * One analytics call for the page's filters (TanStack Query over the request chain). Waits
 * for the saved settings and for at least one vehicle; the key carries every parameter, so
 * a change of the header's selectors loads anew.
 */
export function useAnalytics<T>(
  name: string,
  load: (scope: AnalysisScope) => Promise<T>,
  extraKey: readonly unknown[] = [],
  /** Keep showing the last result while a re-sort or re-filter loads (no flicker). */
  { keepPrevious = false }: { keepPrevious?: boolean } = {},
) {
  const filters = useAnalysisFilters();
  const scope: AnalysisScope = {
    from: filters.from,
    to: filters.to,
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
      vehicleIds,
      filters.combined,
      filters.shift,
      ...extraKey,
    ],
    queryFn: () => load(scope),
    enabled: filters.ready && filters.vehicles.length > 0,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
  });
  const emptyReason = emptyReasonFor({
    vehicleCount: filters.vehicles.length,
    shift: filters.shift,
  });
  const noVehicles = filters.ready && filters.vehicles.length === 0;
  /** The ChartCard status of a chart fed by this call; `isEmpty` judges the loaded data. */
  const statusFor = (isEmpty: (data: T) => boolean): ChartStatus =>
    chartStatus({
      isPending: !noVehicles && query.isPending,
      error: query.error,
      isEmpty: noVehicles || (query.data !== undefined && isEmpty(query.data)),
      emptyReason,
      onRetry: () => void query.refetch(),
    });
  return { query, scope, filters, emptyReason, statusFor };
}
