import { loadFailureMatrix } from '../../api/analytics-failures';
import { useAnalytics } from '../processes/useAnalytics';

/** The error types seen in the period (for the type filter), from the unfiltered matrix. */
export function useErrorTypes(): string[] {
  const { query } = useAnalytics(
    'failureMatrix',
    (scope) => loadFailureMatrix(scope, { errorType: null, level: null }),
    [null, null],
  );
  return (query.data?.errorTypes ?? []).map((type) => type.errorType).sort();
}
