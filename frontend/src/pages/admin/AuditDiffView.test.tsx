import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../api/adminTypes';
import { createI18n } from '../../i18n';
import { AuditDiffView } from './AuditPage';

const ENTRY: AuditEntry = {
  id: 1,
  at: '2026-03-02T08:00:00Z',
  actor: 'superuser@demo.fleetscope',
  via: 'web',
  action: 'site.update',
  entityType: 'site',
  entityId: '1',
  // A long value beside the badges: the column the table squeezed.
  before: { name: 'Werk Nord', mqttInterface: 'uagv/v2/werk-nord-hall-3-and-the-loading-dock' },
  after: { name: 'Werk Nord II', timeZone: 'Europe/Berlin' },
};

function kindBadges(language: 'en' | 'de') {
  createI18n(language);
  render(
    <MantineProvider>
      <AuditDiffView entry={ENTRY} />
    </MantineProvider>,
  );
  return screen.getAllByTestId('audit-diff-kind');
}

describe('audit diff: the kind of each change', () => {
  it.each([
    ['en', ['changed', 'added', 'removed']],
    ['de', ['geändert', 'hinzugefügt', 'entfernt']],
  ] as const)('shows its whole word in %s, never cut off with "…"', (language, words) => {
    const badges = kindBadges(language);
    expect(badges.map((badge) => badge.textContent)).toEqual(words);
    for (const badge of badges) {
      // jsdom lays nothing out; what cut the word was Mantine's hidden overflow with an
      // ellipsis on the badge and its label, so neither may hide or shrink its text.
      const label = badge.firstElementChild as HTMLElement;
      expect(getComputedStyle(badge).overflow).toBe('visible');
      expect(badge.style.minWidth).toBe('max-content');
      expect(getComputedStyle(label).overflow).toBe('visible');
      expect(getComputedStyle(label).textOverflow).not.toBe('ellipsis');
    }
  });
});
