import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoUser } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('dashboard without data', () => {
  it('says why its tiles are empty, and keeps them to arrange', async () => {
    // The fake API's dashboard has no figure in the period.
    renderApp('/dashboards/dashboard', { user: demoUser('customer', 'de') }, 'de');
    const empty = await screen.findByTestId('dashboard-empty', {}, { timeout: 10_000 });
    expect(empty).toHaveAttribute('data-reason', 'noDataInPeriod');
    expect(empty).toHaveTextContent('Keine Daten in diesem Zeitraum');
    expect(screen.getByTestId('dashboard-widgets')).toBeInTheDocument();
  });

  it('a user without vehicles reads why, and the tiles do not wait for figures', async () => {
    renderApp('/dashboards/dashboard', { user: demoUser('customer', 'de'), vehicles: [] }, 'de');
    const empty = await screen.findByTestId('dashboard-empty', {}, { timeout: 10_000 });
    expect(empty).toHaveAttribute('data-reason', 'noVehicles');
    expect(empty).toHaveTextContent('Noch keine Fahrzeuge');
    expect(await screen.findByTestId('kpi-availability')).not.toHaveTextContent('…');
  });
});
