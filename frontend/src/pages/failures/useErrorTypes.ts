import { loadFailureMatrix, NO_ERROR_FILTER } from '../../api/analytics-failures';
import { useAnalyticsQuery } from '../../components/charts';

/** The error types seen in the period (for the type filter), from the unfiltered matrix. */
export function useErrorTypes(): string[] {
  const { query } = useAnalyticsQuery(
    'failureMatrix',
    (scope) => loadFailureMatrix(scope, NO_ERROR_FILTER),
    { extraKey: [null, null] },
  );
  return (query.data?.errorTypes ?? []).map((type) => type.errorType).sort();
}
