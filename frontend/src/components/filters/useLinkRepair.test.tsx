import { notifications } from '@mantine/notifications';
import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoUser } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

afterEach(() => {
  vi.unstubAllGlobals();
  // The notices live in a store of the module, beyond one rendered app.
  notifications.clean();
});

// Not the default second: the lazy pages load slowly on two busy cores.
const SLOW = { timeout: 10_000 };

describe('a link with a period that cannot be read', () => {
  it('shows the saved period, also when the saved settings arrive after the vehicles', async () => {
    let release = () => {};
    const settingsRead = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The end before the start: unreadable. The fake API's saved period is 2–8 March.
    const link = '/productivity/analysis?mode=custom&from=2026-03-05&to=2026-03-01&shift=all';
    const { router, server } = renderApp(link, { user: demoUser('customer') }, 'en', {
      throughFetch: (fetch) => async (input, init) => {
        if (String(input) === '/v2/User/settings' && (init?.method ?? 'GET') === 'GET') {
          await settingsRead;
        }
        return fetch(input, init);
      },
    });
    await waitFor(() => {
      const urls = server.fetchMock.mock.calls.map(([input]) => String(input));
      expect(urls).toContain('/v2/Vehicles');
    }, SLOW);
    // Time for the page to take in the vehicles: a repair made now, before the settings are
    // read, would write the default period (the current week) in place of the saved one.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(new URLSearchParams(router.state.location.search).get('from')).toBe('2026-03-05');
    release();
    await waitFor(() => {
      const view = new URLSearchParams(router.state.location.search);
      expect([view.get('from'), view.get('to')]).toEqual(['2026-03-02', '2026-03-08']);
    }, SLOW);
  });
});

describe('a link naming a shift no site of the user keeps', () => {
  it('names the shift as unreadable, and the address then shows the saved shift', async () => {
    const link = '/productivity/analysis?mode=week&from=2026-03-02&to=2026-03-08&shift=bogus';
    const { router } = renderApp(link, { user: demoUser('customer') }, 'en');
    await waitFor(() => {
      expect(document.body).toHaveTextContent('Not readable in this link: shift.');
    }, SLOW);
    await waitFor(() => {
      expect(new URLSearchParams(router.state.location.search).get('shift')).toBe('all');
    }, SLOW);
  });

  it('keeps a shift the sites keep', async () => {
    const link = '/productivity/analysis?mode=week&from=2026-03-02&to=2026-03-08&shift=early';
    const { router } = renderApp(link, { user: demoUser('customer') }, 'en');
    await waitFor(() => {
      expect(document.querySelector('[data-testid="chart-timeInState"]')).not.toBeNull();
    }, SLOW);
    expect(new URLSearchParams(router.state.location.search).get('shift')).toBe('early');
    expect(document.body).not.toHaveTextContent('Not readable in this link');
  });
});
