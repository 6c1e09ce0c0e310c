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

/** The whole app (same route table) in memory, against a fake API. */
export function renderApp(
  path: string,
  api: Partial<FakeApiState> = {},
  language: 'en' | 'de' = 'en',
) {
  createI18n(language);
  clearResponseCache();
  clearError();
  resetSession();
  const server = fakeApi(api);
  vi.stubGlobal('fetch', server.fetchMock);
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
