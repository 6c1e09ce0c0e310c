import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeError } from '../../api/errors';
import { reportError } from '../../app/errorStore';
import { demoUser } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

afterEach(() => {
  vi.unstubAllGlobals();
});

const TIMEOUT = { timeout: 8000 };
const unwatched = {
  dateSelector: {
    mode: 'week' as const,
    from: '2026-03-02',
    to: '2026-03-08',
    combined: false,
    workflowShift: 'all',
  },
  selectedMachines: [],
  onboardingWatched: false,
};

describe('onboarding overlay', () => {
  it('waits for the analytics: the Administration app does not show it', async () => {
    const { router } = renderApp('/admin/organizations', {
      user: demoUser('superuser'),
      settings: unwatched,
    });
    await screen.findByTestId('admin-app', {}, TIMEOUT);
    // The settings are read (the shell needs them): the overlay would be up by now.
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(screen.queryByTestId('onboarding-overlay')).toBeNull();
    await act(() => router.navigate('/dashboards/dashboard'));
    expect(await screen.findByTestId('onboarding-overlay', {}, TIMEOUT)).toBeInTheDocument();
  });

  it.each([
    ['en', 'Welcome to Fleetscope', 'Next', 'Done', 'Slide 3 of 5'],
    ['de', 'Willkommen bei Fleetscope', 'Weiter', 'Fertig', 'Folie 3 von 5'],
  ] as const)(
    'runs through 5 slides in %s and saves the watched flag on done',
    async (language, welcome, next, done, third) => {
      const { server } = renderApp(
        '/dashboards/dashboard',
        { user: demoUser('customer', language), settings: unwatched },
        language,
      );
      const overlay = await screen.findByTestId('onboarding-overlay', {}, TIMEOUT);
      expect(within(overlay).getByTestId('onboarding-headline')).toHaveTextContent(welcome);
      expect(within(overlay).queryByTestId('onboarding-image-1')).toBeNull();
      expect(within(overlay).getByTestId('onboarding-skip')).toBeInTheDocument();
      for (const slide of [2, 3, 4, 5]) {
        fireEvent.click(screen.getByTestId('onboarding-next'));
        expect(await screen.findByTestId(`onboarding-slide-${slide}`)).toBeInTheDocument();
        const image = screen.getByTestId(`onboarding-image-${slide}`);
        expect(image).toHaveAttribute('data-language', language);
        expect(image.getAttribute('src')).toContain(`/${language}/slide-${slide}`);
        expect(image.style.maxHeight).toBe('320px');
        expect(screen.getByTestId('onboarding-back')).toBeInTheDocument();
        if (slide === 3) {
          // Read out in the user's language, not as Mantine's "60%".
          const bar = screen.getByRole('progressbar', { name: third });
          expect(bar).toHaveAttribute('aria-valuetext', third);
          expect(bar).toHaveAttribute('aria-valuenow', '60');
        }
      }
      expect(screen.queryByTestId('onboarding-next')).toBeNull();
      expect(screen.getByTestId('onboarding-done')).toHaveTextContent(done);
      fireEvent.click(screen.getByTestId('onboarding-back'));
      expect(await screen.findByTestId('onboarding-next')).toHaveTextContent(next);
      fireEvent.click(screen.getByTestId('onboarding-next'));
      fireEvent.click(await screen.findByTestId('onboarding-done'));
      await waitFor(() => expect(screen.queryByTestId('onboarding-overlay')).toBeNull());
      await waitFor(() => expect(server.state.settings.onboardingWatched).toBe(true));
    },
  );

  it('skip on slide 1 hides it for good', async () => {
    const { server } = renderApp('/dashboards/dashboard', {
      user: demoUser('service'),
      settings: unwatched,
    });
    fireEvent.click(await screen.findByTestId('onboarding-skip', {}, TIMEOUT));
    await waitFor(() => expect(server.state.settings.onboardingWatched).toBe(true));
    expect(screen.queryByTestId('onboarding-overlay')).toBeNull();
  });

  it('Escape skips on slide 1 only: later slides have back and next, no skip', async () => {
    const { server } = renderApp('/dashboards/dashboard', {
      user: demoUser('service'),
      settings: unwatched,
    });
    await screen.findByTestId('onboarding-slide-1', {}, TIMEOUT);
    fireEvent.click(screen.getByTestId('onboarding-next'));
    const second = await screen.findByTestId('onboarding-slide-2');
    fireEvent.keyDown(second, { key: 'Escape' });
    expect(screen.getByTestId('onboarding-slide-2')).toBeInTheDocument();
    expect(server.state.settings.onboardingWatched).toBe(false);
    fireEvent.click(screen.getByTestId('onboarding-back'));
    fireEvent.keyDown(await screen.findByTestId('onboarding-slide-1'), { key: 'Escape' });
    await waitFor(() => expect(server.state.settings.onboardingWatched).toBe(true));
  });

  it('is not shown once watched', async () => {
    renderApp('/dashboards/dashboard', { user: demoUser('service') });
    await screen.findByTestId('page-dashboard', {}, TIMEOUT);
    expect(screen.queryByTestId('onboarding-overlay')).toBeNull();
  });
});

describe('error overlay', () => {
  it('shows the translated header of the type with the details and clears on close', async () => {
    renderApp('/dashboards/dashboard', { user: demoUser('customer', 'de') }, 'de');
    await screen.findByTestId('page-dashboard', {}, TIMEOUT);
    act(() =>
      reportError(
        makeError({
          type: 'NETWORK',
          url: '/v2/Sites',
          user: 'customer@demo.fleetscope',
          message: 'boom',
          body: '{"a":1}',
        }),
      ),
    );
    const overlay = await screen.findByTestId('error-overlay');
    // The header names the dialog (its title), for screen readers too.
    const dialog = screen.getByRole('dialog', { name: 'Der Server hat ein Problem gemeldet' });
    expect(within(dialog).getByTestId('error-overlay-header')).toHaveTextContent(
      'Der Server hat ein Problem gemeldet',
    );
    expect(within(overlay).getByTestId('error-overlay-message')).toHaveTextContent('boom');
    expect(within(overlay).getByTestId('error-overlay-url')).toHaveTextContent('/v2/Sites');
    expect(within(overlay).getByTestId('error-overlay-body')).toHaveTextContent('{"a":1}');
    expect(within(overlay).getByTestId('error-overlay-user')).toHaveTextContent(
      'customer@demo.fleetscope',
    );
    fireEvent.click(within(overlay).getByTestId('error-overlay-close'));
    await waitFor(() => expect(screen.queryByTestId('error-overlay')).toBeNull());
  });

  it('shows a server failure of a real request', async () => {
    const { server } = renderApp('/dashboards/dashboard', { user: demoUser('customer') });
    await screen.findByTestId('page-dashboard', {}, TIMEOUT);
    server.fetchMock.mockImplementationOnce(
      async () =>
        new Response(
          JSON.stringify({
            status: false,
            msg: 'dateSelector.from: must not be after to',
            data: null,
          }),
          {
            status: 422,
          },
        ),
    );
    fireEvent.click(screen.getByTestId('combined-switch'));
    const overlay = await screen.findByTestId('error-overlay');
    expect(overlay).toHaveAttribute('data-error-type', 'NETWORK');
    expect(within(overlay).getByTestId('error-overlay-message')).toHaveTextContent(
      'must not be after to',
    );
    expect(within(overlay).getByTestId('error-overlay-body')).toHaveTextContent(
      '{"dateSelector":{"combined":true}}',
    );
  });
});
