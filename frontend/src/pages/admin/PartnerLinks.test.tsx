import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
});
