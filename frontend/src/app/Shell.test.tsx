import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoUser } from '../test/fakeApi';
import { renderApp } from '../test/renderApp';

afterEach(() => {
  vi.unstubAllGlobals();
  window.innerWidth = 1024;
});

const TIMEOUT = { timeout: 8000 };

describe('desktop shell', () => {
  it.each(['customer', 'support'] as const)(
    'shows the side navigation of role %s',
    async (role) => {
      renderApp('/dashboards/dashboard', { user: demoUser(role) });
      const nav = await screen.findByTestId('nav-side', {}, TIMEOUT);
      for (const area of [
        'dashboards',
        'productivity',
        'processes',
        'failures',
        'battery',
        'logout',
      ]) {
        expect(within(nav).getByTestId(`menu-entry-${area}`)).toBeInTheDocument();
      }
      const help = within(nav).queryByTestId('menu-entry-help');
      expect(help !== null).toBe(['superuser', 'customer', 'partner'].includes(role));
      expect(screen.getByTestId('shell')).toHaveAttribute('data-navigation', 'side');
    },
  );

  it('opens the flyout with the sub-pages and beta marks', async () => {
    renderApp('/productivity/analysis', { user: demoUser('customer') });
    fireEvent.click(await screen.findByTestId('menu-entry-dashboards', {}, TIMEOUT));
    const flyout = await screen.findByTestId('menu-flyout-dashboards');
    expect(within(flyout).getByTestId('menu-entry-dashboards-dashboard')).toHaveTextContent(
      'Dashboard',
    );
    expect(within(flyout).getByTestId('menu-beta-dashboards-statusboard')).toHaveTextContent(
      'Beta',
    );
  });

  it('hides the navigation in display mode', async () => {
    renderApp('/dashboards/statusboard?displayMode=true', { user: demoUser('support') });
    await screen.findByTestId('page-statusboard', {}, TIMEOUT);
    expect(screen.queryByTestId('nav-side')).toBeNull();
    expect(screen.getByTestId('shell')).toHaveAttribute('data-navigation', 'hidden');
  });

  it('opens help for the current page and closes it', async () => {
    renderApp('/battery', { user: demoUser('partner') });
    fireEvent.click(await screen.findByTestId('menu-entry-help', {}, TIMEOUT));
    const help = await screen.findByTestId('help-overlay');
    expect(help).toHaveAttribute('data-help-topic', 'battery');
    expect(within(help).getByTestId('help-kpi-depthOfDischarge')).toHaveTextContent(
      'Depth of discharge',
    );
    fireEvent.click(within(help).getByTestId('help-close'));
    await waitFor(() => expect(screen.queryByTestId('help-overlay')).toBeNull());
    // Also from beside its title, without scrolling through the definitions.
    fireEvent.click(screen.getByTestId('menu-entry-help'));
    const again = await screen.findByTestId('help-overlay');
    const top = within(again).getByTestId('help-close-top');
    expect(top).toHaveAccessibleName('Close');
    fireEvent.click(top);
    await waitFor(() => expect(screen.queryByTestId('help-overlay')).toBeNull());
  });

  it('logs out through the callback entry and lands on login', async () => {
    const { router, server } = renderApp('/dashboards/dashboard', { user: demoUser('service') });
    fireEvent.click(await screen.findByTestId('menu-entry-logout', {}, TIMEOUT));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(server.fetchMock.mock.calls.some(([url]) => url === '/v2/User/logout')).toBe(true);
  });

  it('sends the user to login?error=session when the session expires', async () => {
    const { router, server } = renderApp('/dashboards/dashboard', { user: demoUser('customer') });
    await screen.findByTestId('page-dashboard', {}, TIMEOUT);
    server.state.user = null;
    fireEvent.click(screen.getByTestId('combined-switch'));
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
        '/login?error=session',
      ),
    );
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Your session has expired');
  });
});

describe('mobile shell', () => {
  it('has one menu entry holding all items', async () => {
    window.innerWidth = 390;
    renderApp('/failures/overview', { user: demoUser('support') });
    fireEvent.click(await screen.findByTestId('menu-entry-mobile-menu', {}, TIMEOUT));
    const drawer = await screen.findByTestId('mobile-menu-drawer');
    for (const id of ['dashboards', 'productivity', 'processes', 'failures', 'battery', 'logout']) {
      expect(within(drawer).getByTestId(`mobile-menu-entry-${id}`)).toBeInTheDocument();
    }
    expect(within(drawer).queryByTestId('mobile-menu-entry-help')).toBeNull();
    expect(screen.queryByTestId('nav-side')).toBeNull();
    expect(screen.getByTestId('shell').style.height).toBe(`${window.innerHeight}px`);
  });
});
