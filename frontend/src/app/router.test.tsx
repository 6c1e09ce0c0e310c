import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoUser } from '../test/fakeApi';
import { renderApp } from '../test/renderApp';

afterEach(() => {
  vi.unstubAllGlobals();
});

// Not the default second: the lazy pages load slowly on two busy cores.
const SLOW = { timeout: 10_000 };

/** Lands on `expected` (its query kept; the page adds the view to it). */
async function landsOn(path: string, expected: string, user = demoUser('customer')) {
  const { router } = renderApp(path, { user });
  const [pathname, query = ''] = expected.split('?');
  await waitFor(() => {
    expect(router.state.location.pathname).toBe(pathname);
    expect(router.state.location.search).toContain(query);
  }, SLOW);
  return router;
}

describe('routes and redirects of spec section 2', () => {
  it('sends a logged-out user to login, remembering where they came from', async () => {
    const { router } = renderApp('/productivity/history');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), SLOW);
    expect(router.state.location.search).toBe(
      `?from=${encodeURIComponent('/productivity/history')}`,
    );
    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
  });

  it('tells a user whose session ended while the page was closed why they log in again', async () => {
    // The CSRF cookie of the lost session is still there; the server no longer knows it.
    // biome-ignore lint/suspicious/noDocumentCookie: the browser's cookie is what is tested
    document.cookie = 'fleetscope_csrf=stale; path=/';
    const { router } = renderApp('/failures/history');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), SLOW);
    expect(router.state.location.search).toBe(
      `?from=${encodeURIComponent('/failures/history')}&error=session`,
    );
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Your session has expired');
    expect(document.cookie).not.toContain('fleetscope_csrf');
  });

  it('keeps the CSRF cookie when the start-up could not ask the server (a reload cut it short)', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the browser's cookie is what is tested
    document.cookie = 'fleetscope_csrf=live; path=/';
    const { router } = renderApp('/failures/history', {}, 'en', {
      throughFetch: (fakeFetch) => (input, init) =>
        String(input).endsWith('/v2/User/me')
          ? Promise.reject(new TypeError('Failed to fetch'))
          : fakeFetch(input, init),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), SLOW);
    expect(router.state.location.search).not.toContain('error=session');
    expect(document.cookie).toContain('fleetscope_csrf=live');
    // biome-ignore lint/suspicious/noDocumentCookie: the browser's cookie is what is tested
    document.cookie = 'fleetscope_csrf=; path=/; max-age=0';
  });

  it('writes the view into the address of a page reached without one (a link to it)', async () => {
    const router = await landsOn('/productivity/history', '/productivity/history');
    // The saved settings' view (a week, all machines and shifts, per machine).
    await waitFor(
      () =>
        expect(router.state.location.search).toMatch(
          /^\?mode=week&from=\d{4}-\d\d-\d\d&to=\d{4}-\d\d-\d\d&vehicles=all&shift=all&combined=false$/,
        ),
      SLOW,
    );
  });

  it.each([
    ['/', '/dashboards/dashboard'],
    ['/dashboards', '/dashboards/dashboard'],
    ['/productivity', '/productivity/analysis'],
    ['/processes', '/processes/analysis'],
    ['/failures', '/failures/analysis'],
    ['/no/such/page', '/dashboards/dashboard'],
    ['/dashboards?displayMode=true', '/dashboards/dashboard?displayMode=true'],
  ])('redirects %s to %s', async (from, to) => {
    await landsOn(from, to);
  });

  // Twelve pages with their analyses render in turn; on 2 shared cores that takes a while.
  it('shows every page lazily loaded, with header and selectors', async () => {
    const pages = [
      ['/dashboards/dashboard', 'page-dashboard'],
      ['/dashboards/statusboard', 'page-statusboard'],
      ['/productivity/analysis', 'page-productivityAnalysis'],
      ['/productivity/history', 'page-productivityHistory'],
      ['/processes/analysis', 'page-processesAnalysis'],
      ['/processes/workflows', 'page-processesWorkflows'],
      ['/processes/actions', 'page-processesActions'],
      ['/failures/analysis', 'page-failuresAnalysis'],
      ['/failures/overview', 'page-failuresOverview'],
      ['/failures/visualization', 'page-failuresVisualization'],
      ['/failures/history', 'page-failuresHistory'],
      ['/battery', 'page-battery'],
    ];
    const { router } = renderApp('/dashboards/dashboard', { user: demoUser('support') });
    for (const [path, testId] of pages) {
      await act(() => router.navigate(path as string));
      const page = await screen.findByTestId(testId as string, {}, { timeout: 20_000 });
      expect(page).toContainElement(screen.getByTestId('machine-selector'));
      // The live statusboard shows the present: period, shift and combined do nothing there.
      const periodParts = ['date-picker', 'date-mode', 'shift-selector', 'combined-switch'];
      for (const part of periodParts) {
        if (testId === 'page-statusboard') {
          expect(screen.queryByTestId(part)).toBeNull();
        } else {
          expect(page).toContainElement(screen.getByTestId(part));
        }
      }
    }
  }, 240_000);

  it('areas behind the extra check show a clear empty state without vehicles', async () => {
    renderApp('/battery', { user: demoUser('customer'), vehicles: [] });
    expect(await screen.findByTestId('no-vehicles', {}, { timeout: 20_000 })).toHaveTextContent(
      'No vehicles yet',
    );
    expect(screen.queryByTestId('page-battery')).toBeNull();
  });

  it('dashboards do not need the extra check', async () => {
    renderApp('/dashboards/dashboard', { user: demoUser('customer'), vehicles: [] });
    expect(
      await screen.findByTestId('page-dashboard', {}, { timeout: 20_000 }),
    ).toBeInTheDocument();
  });

  it('a logged-in user visiting login is sent on', async () => {
    await landsOn('/login?from=%2Fbattery', '/battery');
  });

  it('login?error=session shows the expired-session message in German', async () => {
    renderApp('/login?error=session', {}, 'de');
    expect(await screen.findByTestId('login-error')).toHaveTextContent(
      'Ihre Sitzung ist abgelaufen',
    );
  });
});
