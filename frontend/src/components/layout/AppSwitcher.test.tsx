import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createHashRouter, createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../api/types';
import { createI18n } from '../../i18n';
import { AppSwitcher } from './AppSwitcher';

/** The superuser's switcher on any page of a memory router, to navigate under it. */
function renderSwitcher(createRouter: typeof createMemoryRouter = createMemoryRouter) {
  createI18n('en');
  const role: Role = 'superuser';
  const router = createRouter(
    [{ path: '*', element: <AppSwitcher role={role} current="analytics" /> }],
    { initialEntries: ['/dashboards/dashboard'] },
  );
  render(
    <MantineProvider>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return { router, button: screen.getByTestId('app-switcher') };
}

async function open(button: HTMLElement) {
  // A real click (or Enter, Space) focuses the logo first; jsdom's click does not.
  button.focus();
  fireEvent.click(button);
  const dropdown = await screen.findByTestId('app-switcher-dropdown');
  await waitFor(() => expect(screen.getByTestId('app-analytics')).toHaveFocus());
  return dropdown;
}

describe('app switcher', () => {
  it('is a menu: opens on its first app, the arrow keys move, Escape closes to the logo', async () => {
    const { button } = renderSwitcher();
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    const dropdown = await open(button);
    expect(dropdown).toHaveAttribute('role', 'menu');
    // jsdom lays nothing out, so floating-ui reports the logo as hidden and the dropdown
    // carries display: none; the roles are there all the same.
    const items = within(dropdown).getAllByRole('menuitem', { hidden: true });
    expect(items.map((item) => item.dataset.testid)).toEqual([
      'app-analytics',
      'app-administration',
    ]);
    expect(screen.getByTestId('app-analytics')).toHaveAttribute('aria-current', 'page');

    fireEvent.keyDown(screen.getByTestId('app-analytics'), { key: 'ArrowDown' });
    expect(screen.getByTestId('app-administration')).toHaveFocus();
    fireEvent.keyDown(screen.getByTestId('app-administration'), { key: 'ArrowUp' });
    expect(screen.getByTestId('app-analytics')).toHaveFocus();

    fireEvent.keyDown(screen.getByTestId('app-analytics'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('app-switcher-dropdown')).toBeNull());
    await waitFor(() => expect(button).toHaveFocus());
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes when the app navigates under it (a link, back)', async () => {
    const { router, button } = renderSwitcher();
    await open(button);
    // A page writing its view into the query is no navigation: the menu stays.
    await act(() => router.navigate('/dashboards/dashboard?mode=week', { replace: true }));
    expect(screen.getByTestId('app-switcher-dropdown')).toBeInTheDocument();
    expect(screen.getByTestId('app-analytics')).toHaveFocus();
    await act(() => router.navigate('/failures/history'));
    await waitFor(() => expect(screen.queryByTestId('app-switcher-dropdown')).toBeNull());
    // And opens again on the new page.
    await open(button);
    await act(() => router.navigate(-1));
    await waitFor(() => expect(screen.queryByTestId('app-switcher-dropdown')).toBeNull());
  });

  it('closes when a hash is typed into the address bar', async () => {
    // The app's own hash router: such an entry has no key of its own ("default").
    window.location.hash = '#/dashboards/dashboard';
    const { button } = renderSwitcher(createHashRouter);
    await open(button);
    act(() => {
      window.location.hash = '#/failures/history';
    });
    await waitFor(() => expect(screen.queryByTestId('app-switcher-dropdown')).toBeNull());
  });

  it('switching the app navigates to its home and closes the menu', async () => {
    const { router, button } = renderSwitcher();
    await open(button);
    fireEvent.click(screen.getByTestId('app-administration'));
    expect(router.state.location.pathname).toBe('/admin/organizations');
    await waitFor(() => expect(screen.queryByTestId('app-switcher-dropdown')).toBeNull());
  });
});
