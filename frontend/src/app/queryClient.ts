import { QueryClient } from '@tanstack/react-query';
import { CACHE_TTL_MS } from '../constants';

/**
 * TanStack Query sits on top of the request chain. Its own freshness matches the chain's
 * cache lifetime; failures are not retried because the chain already reported them.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: CACHE_TTL_MS, retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
