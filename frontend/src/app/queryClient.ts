import { QueryClient } from '@tanstack/react-query';
import { onStoredDataChange } from '../api/admin';
import { CACHE_TTL_MS } from '../constants';
import { isRefreshedQuery } from '../lib/autoRefresh';

/**
 * TanStack Query sits on top of the request chain. Its own freshness matches the chain's
 * cache lifetime; failures are not retried because the chain already reported them. Queries
 * run offline too (`networkMode: 'always'`) instead of pausing: the chain turns a request
 * made offline into the no-internet error (spec section 8), so a refresh while offline says
 * so rather than waiting silently.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: CACHE_TTL_MS,
      retry: false,
      refetchOnWindowFocus: false,
      networkMode: 'always',
    },
    mutations: { retry: false, networkMode: 'always' },
  },
});

// An administration change or an ended re-derivation: the pages' data (analytics, vehicles,
// sites) is stale, as after the refresh control; the open page asks again, the others when
// they are next shown.
onStoredDataChange(() => {
  void queryClient.invalidateQueries({ predicate: (query) => isRefreshedQuery(query.queryKey) });
});
