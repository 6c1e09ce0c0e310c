import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserAdmin } from '../../api/adminTypes';
import { Providers } from '../../app/Providers';
import { createI18n } from '../../i18n';
import { PartnerLinkEditor } from './PartnerLinks';

const ORGANIZATIONS = [
  {
    id: 1,
    name: 'Nordlicht Logistik',
    createdAt: '2026-01-01T00:00:00Z',
    siteCount: 1,
    userCount: 1,
  },
  { id: 2, name: 'Alpenfracht AG', createdAt: '2026-01-01T00:00:00Z', siteCount: 1, userCount: 1 },
];

function partner(linked: number[]): UserAdmin {
  return {
    id: 9,
    email: 'partner@demo.fleetscope',
    displayName: null,
    role: 'partner',
    language: 'de',
    isActive: true,
    createdAt: '2026-01-01T00:00:00Z',
    partnerOrganizationIds: linked,
  };
}

function renderEditor(linked: number[]) {
  createI18n('de');
  render(
    <Providers>
      <PartnerLinkEditor user={partner(linked)} organizations={ORGANIZATIONS} />
    </Providers>,
  );
  return screen.getByRole('combobox', { name: 'partner@demo.fleetscope' });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a partner link editor', () => {
  it('says "no organization" only while none is linked', () => {
    expect(renderEditor([])).toHaveAttribute('placeholder', 'Keine Organisation');
  });

  it('shows the linked organizations without that placeholder beside them', () => {
    const field = renderEditor([1]);
    const editor = screen.getByTestId('partner-link-partner@demo.fleetscope');
    expect(within(editor).getByText('Nordlicht Logistik')).toBeInTheDocument();
    expect(field).not.toHaveAttribute('placeholder');
  });

  it('saves the new list with the list it was made on, so a change saved meanwhile is not undone', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(
          JSON.stringify({ status: true, msg: null, data: { organizationIds: [1, 2] } }),
          {
            headers: { 'Content-Type': 'application/json' },
          },
        ),
    );
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    await user.click(renderEditor([1]));
    await user.click(await screen.findByRole('option', { name: 'Alpenfracht AG', hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toContain('/v2/Admin/Users/9/PartnerOrganizations');
    expect(init.method).toBe('PUT');
    expect(JSON.parse(String(init.body))).toEqual({ organizationIds: [1, 2], editedFrom: [1] });
  });
});
