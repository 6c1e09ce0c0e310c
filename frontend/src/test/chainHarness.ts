import { vi } from 'vitest';
import { clearResponseCache, configureRequestChain, type RequestChainHooks } from '../api/client';
import type { AppError } from '../api/errors';
import type { fakeFetch } from './fakeServer';

/** Request chain wired to recorders, for the chain's unit tests. */
export function chainHarness() {
  const recorded = { errors: [] as AppError[], authFailures: 0, online: true };
  const reset = () => {
    clearResponseCache();
    recorded.errors = [];
    recorded.authFailures = 0;
    recorded.online = true;
    vi.useRealTimers();
  };
  const setup = (
    fetchMock: ReturnType<typeof fakeFetch>,
    more: Partial<Pick<RequestChainHooks, 'wait' | 'random'>> = {},
  ) => {
    configureRequestChain({
      ...more,
      fetch: fetchMock as unknown as typeof fetch,
      currentUser: () => 'customer@demo.fleetscope',
      reportError: (error) => recorded.errors.push(error),
      onAuthenticationFailed: () => {
        recorded.authFailures += 1;
      },
      isOnline: () => recorded.online,
    });
    return fetchMock;
  };
  return { recorded, reset, setup };
}
