import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { clearResponseCache, configureRequestChain } from '../api/client';
import { clearError } from '../app/errorStore';
import { Providers } from '../app/Providers';
import { installRequestChain } from '../app/requestChain';
import { routes } from '../app/router';
import { resetSession } from '../app/session';
import { createI18n } from '../i18n';
import { type FakeApiState, fakeApi } from './fakeApi';

type Fetch = typeof fetch;

/**
 * The whole app (same route table) in memory, against a fake API; `throughFetch` may stand
 * between the app and the fake API (for example to hold back one answer).
 */
export function renderApp(
  path: string,
  api: Partial<FakeApiState> = {},
  language: 'en' | 'de' = 'en',
  { throughFetch }: { throughFetch?: (fetch: Fetch) => Fetch } = {},
) {
  createI18n(language);
  clearResponseCache();
  clearError();
  resetSession();
  const server = fakeApi(api);
  const fakeFetch = server.fetchMock as unknown as Fetch;
  vi.stubGlobal('fetch', throughFetch ? throughFetch(fakeFetch) : fakeFetch);
  configureRequestChain({});
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  installRequestChain({ navigate: (to) => void router.navigate(to) });
  const view = render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, router, server };
}
