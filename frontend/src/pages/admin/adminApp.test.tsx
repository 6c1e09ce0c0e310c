import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoUser } from '../../test/fakeApi';
import { jsonResponse } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

afterEach(() => {
  vi.unstubAllGlobals();
});

const ORGANIZATIONS = [
  {
    id: 1,
    name: 'Nordlicht Logistik',
    createdAt: '2026-01-01T00:00:00Z',
    siteCount: 2,
    userCount: 3,
  },
];
const CONFLICT = "organization 'Nordlicht Logistik' still has sites (2) and users (3)";
const SITE_CONFLICT = "site 'Hamburg DC' still has vehicles (8); move them to another site first";
const INTERFACE_TAKEN = "mqttInterface: 'uagv' already belongs to 'Hamburg DC'";
const SITE = {
  organizationId: 1,
  organizationName: 'Nordlicht Logistik',
  timeZone: 'Europe/Berlin',
  mqttInterface: null,
  shifts: [],
  workflowRules: [],
  loadActionTypes: [],
  version: 'v1',
};
const SITES = [
  { ...SITE, id: 1, name: 'Hamburg DC', vehicleCount: 8, mqttInterface: 'uagv' },
  { ...SITE, id: 2, name: 'Kiel', vehicleCount: 0 },
];
const USER = {
  id: 5,
  email: 'leaving@nordlicht.example',
  displayName: 'Leaving',
  role: 'customer',
  organizationId: 1,
  organizationName: 'Nordlicht Logistik',
  language: 'en',
  isActive: true,
  passwordTemporary: false,
  createdAt: '2026-01-01T00:00:00Z',
  lastLoginAt: null,
  partnerOrganizationIds: [],
};

/** A finished re-derivation job of the site `siteId`. */
function job(id: number, siteId: number) {
  const at = '2026-01-02T00:00:00Z';
  return {
    id,
    state: 'done',
    reason: 'workflowRules',
    siteId,
    vehicleIds: [3],
    framesTotal: 10,
    framesDone: 10,
    percent: 100,
    secondsLeft: null,
    createdAt: at,
    startedAt: at,
    finishedAt: at,
    error: null,
    createdBy: 'superuser@demo.fleetscope',
  };
}

/** The app with a small Administration API beside the fake analytics API. */
function renderAdmin(path: string, role: 'superuser' | 'customer' = 'superuser') {
  const rendered = renderApp(path, { user: demoUser(role) });
  const calls: string[] = [];
  const analytics = rendered.server.fetchMock;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (!url.startsWith('/v2/Admin/')) {
      return analytics(input, init);
    }
    calls.push(`${method} ${url}`);
    const ok = (data: unknown) => jsonResponse({ status: true, msg: null, data });
    if (url === '/v2/Admin/Organizations' && method === 'GET') {
      return ok(ORGANIZATIONS);
    }
    if (url === '/v2/Admin/Organizations/1' && method === 'DELETE') {
      return jsonResponse({ status: false, msg: CONFLICT, data: null }, 409);
    }
    if (url.startsWith('/v2/Admin/Sites') && method === 'GET') {
      return ok(SITES);
    }
    if (url === '/v2/Admin/Sites/1' && method === 'DELETE') {
      return jsonResponse({ status: false, msg: SITE_CONFLICT, data: null }, 409);
    }
    if (url === '/v2/Admin/Sites' && method === 'POST') {
      return jsonResponse({ status: false, msg: INTERFACE_TAKEN, data: null }, 409);
    }
    if ((url === '/v2/Admin/Sites/2' || url === '/v2/Admin/Users/5') && method === 'DELETE') {
      return ok(null);
    }
    if (url.startsWith('/v2/Admin/Users?')) {
      const items = path === '/admin/users' ? [USER] : [];
      return ok({ items, total: items.length, page: 1, pageSize: 500, pages: 1, sort: 'email' });
    }
    if (url.startsWith('/v2/Admin/DeadLetters?')) {
      const page = { items: [], total: 0, page: 1, pageSize: 50, pages: 0, sort: '-receivedAt' };
      return ok({ ...page, bySource: [] });
    }
    if (url.startsWith('/v2/Admin/Jobs?')) {
      const items = path === '/admin/jobs' ? [job(1, 1), job(2, 9)] : [];
      return ok({
        items,
        total: items.length,
        page: 1,
        pageSize: 20,
        pages: 1,
        sort: '-createdAt',
      });
    }
    return jsonResponse({ status: false, msg: 'not found', data: null }, 404);
  });
  return { ...rendered, calls };
}

async function landsOn(router: { state: { location: { pathname: string } } }, path: string) {
  await waitFor(() => expect(router.state.location.pathname).toBe(path), { timeout: 20_000 });
}

describe('the Administration app', () => {
  it('a customer who types an admin URL lands on the dashboard', { timeout: 60_000 }, async () => {
    const { router, calls } = renderAdmin('/admin/users', 'customer');
    await landsOn(router, '/dashboards/dashboard');
    expect(calls).toEqual([]);
  });

  it('the superuser gets its own menu, help and the list; /admin opens the organizations', async () => {
    const { router } = renderAdmin('/admin');
    await landsOn(router, '/admin/organizations');
    const page = await screen.findByTestId('page-admin-organizations', {}, { timeout: 20_000 });
    expect(await within(page).findByTestId('organization-row-Nordlicht Logistik')).toBeVisible();
    const nav = screen.getByTestId('nav-side');
    const entries = within(nav)
      .getAllByTestId(/^menu-entry-/)
      .map((entry) => entry.getAttribute('data-testid'));
    expect(entries).toEqual([
      'menu-entry-admin-organizations',
      'menu-entry-admin-sites',
      'menu-entry-admin-vehicles',
      'menu-entry-admin-users',
      'menu-entry-admin-tokens',
      'menu-entry-admin-deadLetters',
      'menu-entry-admin-jobs',
      'menu-entry-admin-audit',
      'menu-entry-help',
      'menu-entry-logout',
    ]);
    expect(screen.getByTestId('app-switcher')).toHaveAttribute('data-app', 'administration');
    fireEvent.click(within(nav).getByTestId('menu-entry-help'));
    const help = await screen.findByTestId('help-overlay');
    expect(help).toHaveAttribute('data-help-topic', 'admin-organizations');
    expect(within(help).getAllByRole('listitem')).toHaveLength(4);
  }, 60_000);

  it("a refused delete shows the server's message, not the error overlay", async () => {
    const { calls } = renderAdmin('/admin/organizations');
    const row = await screen.findByTestId(
      'organization-row-Nordlicht Logistik',
      {},
      { timeout: 20_000 },
    );
    fireEvent.click(within(row).getByTestId('organization-delete'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    expect(await screen.findByTestId('organization-delete-error')).toHaveTextContent(CONFLICT);
    expect(calls).toContain('DELETE /v2/Admin/Organizations/1');
    expect(screen.queryByTestId('error-overlay')).toBeNull();
  }, 60_000);

  it('a site is deleted after confirming; one with vehicles stays, the dialog says why', async () => {
    const { calls } = renderAdmin('/admin/sites');
    const kiel = await screen.findByTestId('site-row-Kiel', {}, { timeout: 20_000 });
    fireEvent.click(within(kiel).getByTestId('site-delete'));
    const confirm = await screen.findByTestId('confirm-dialog');
    expect(confirm).toHaveTextContent('Delete the site “Kiel” with its API tokens?');
    fireEvent.click(within(confirm).getByTestId('confirm-ok'));
    await waitFor(() => expect(calls).toContain('DELETE /v2/Admin/Sites/2'));
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());

    const hamburg = screen.getByTestId('site-row-Hamburg DC');
    fireEvent.click(within(hamburg).getByTestId('site-delete'));
    expect(await screen.findByTestId('confirm-dialog')).toHaveTextContent(
      'Messages on its MQTT interface “uagv” are no longer heard.',
    );
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    expect(await screen.findByTestId('site-delete-error')).toHaveTextContent(SITE_CONFLICT);
    expect(screen.getByTestId('confirm-dialog')).toBeInTheDocument(); // open, with the reason
    expect(screen.queryByTestId('error-overlay')).toBeNull();
  }, 60_000);

  it('a refused new site shows the refusal at the field it names', async () => {
    renderAdmin('/admin/sites');
    const page = await screen.findByTestId('page-admin-sites', {}, { timeout: 20_000 });
    const user = userEvent.setup();
    await user.click(await within(page).findByTestId('site-organization'));
    await user.keyboard('{ArrowDown}{Enter}');
    await waitFor(() =>
      expect(within(page).getByTestId('site-organization')).toHaveValue('Nordlicht Logistik'),
    );
    fireEvent.change(within(page).getByTestId('site-name'), { target: { value: 'Kiel 2' } });
    fireEvent.change(within(page).getByTestId('site-mqtt-interface'), {
      target: { value: 'uagv' },
    });
    fireEvent.click(within(page).getByTestId('site-create'));
    const mqtt = within(page).getByTestId('site-mqtt-interface');
    await waitFor(() => expect(mqtt).toHaveAttribute('aria-invalid', 'true'));
    expect(page).toHaveTextContent(INTERFACE_TAKEN);
    expect(within(page).getByTestId('site-name')).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('a user is deleted from their dialog after confirming, and the dialog closes', async () => {
    const { calls } = renderAdmin('/admin/users');
    const row = await screen.findByTestId(
      'user-row-leaving@nordlicht.example',
      {},
      { timeout: 20_000 },
    );
    fireEvent.click(within(row).getByTestId('user-edit'));
    fireEvent.click(await screen.findByTestId('user-delete'));
    const confirm = await screen.findByTestId('confirm-dialog');
    expect(confirm).toHaveTextContent('Delete leaving@nordlicht.example for good?');
    expect(calls).not.toContain('DELETE /v2/Admin/Users/5');
    fireEvent.click(within(confirm).getByTestId('confirm-ok'));
    await waitFor(() => expect(calls).toContain('DELETE /v2/Admin/Users/5'));
    await waitFor(() => expect(screen.queryByTestId('user-edit-dialog')).toBeNull());
  }, 60_000);

  it('a job links to its site by name, and names a deleted site by id without a link', async () => {
    renderAdmin('/admin/jobs');
    const hamburg = await screen.findByRole('link', { name: 'Hamburg DC' }, { timeout: 20_000 });
    expect(hamburg).toHaveAttribute('href', '/admin/sites/1');
    const deleted = await screen.findByText('Site 9');
    expect(deleted.closest('a')).toBeNull();
  }, 60_000);

  it('an empty dead-letter list says none was refused, or that none matches a filter', async () => {
    const { calls } = renderAdmin('/admin/deadLetters');
    const empty = await screen.findByTestId('dead-letters-empty', {}, { timeout: 20_000 });
    expect(empty).toHaveTextContent(
      'No dead letters: no refused message is waiting (none was refused, or each was re-ingested, deleted or past its retention).',
    );
    fireEvent.change(screen.getByTestId('dead-letters-reason'), { target: { value: 'JSON' } });
    await waitFor(() =>
      expect(screen.getByTestId('dead-letters-empty')).toHaveTextContent(
        'No dead letters match these filters.',
      ),
    );
    // The filter is debounced: the empty text follows the field at once, the request a moment later.
    await waitFor(() => expect(calls.some((call) => call.includes('reason=JSON'))).toBe(true), {
      timeout: 20_000,
    });
  }, 60_000);
});
