import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { StatusTile } from '../../api/analytics';
import { createI18n } from '../../i18n';
import { LiveIndicator, StateCounts, StatusTiles } from './StatusTiles';
import { boardFromSnapshot } from './statusboardModel';

function tile(vehicleId: number, overrides: Partial<StatusTile>): StatusTile {
  return {
    vehicleId,
    name: `AGV ${vehicleId}`,
    siteId: 1,
    state: 'working',
    since: '2026-11-21T14:50:00Z',
    orderId: '',
    workflow: '',
    charge: 55.4,
    charging: false,
    activeErrors: [],
    activeErrorCount: 0,
    lastMessageAt: '2026-11-21T14:59:57Z',
    secondsSinceLastMessage: 3,
    ...overrides,
  };
}

describe('statusboard tiles', () => {
  it('says that none of the selected vehicles is in service instead of an empty grid', () => {
    createI18n('de');
    const now = Date.parse('2026-11-21T15:00:00Z');
    const board = boardFromSnapshot(
      {
        generatedAt: '2026-11-21T15:00:00Z',
        stateOrder: ['error', 'offline', 'manual', 'charging', 'idle', 'working'],
        counts: {},
        vehicles: [],
      },
      now,
    );
    render(
      <MantineProvider>
        <StatusTiles board={board} now={now} large={false} />
      </MantineProvider>,
    );
    expect(screen.queryByTestId('status-tiles')).toBeNull();
    expect(screen.getByTestId('statusboard-none-in-service')).toHaveTextContent(
      /^Keines der ausgewählten Fahrzeuge ist im Einsatz/,
    );
  });

  it('renders counts and tiles worst first with order, charge, errors and age', () => {
    createI18n('de');
    const now = Date.parse('2026-11-21T15:00:00Z');
    const board = boardFromSnapshot(
      {
        generatedAt: '2026-11-21T15:00:00Z',
        stateOrder: ['error', 'offline', 'manual', 'charging', 'idle', 'working'],
        counts: { error: 1, working: 1 },
        vehicles: [
          tile(1, { orderId: 'T-0001', workflow: 'TRANSPORT_A' }),
          tile(2, {
            state: 'error',
            // The worst of many: the count is the vehicle's, the list only the tile's.
            activeErrors: [{ errorType: 'laserBlocked', level: 'FATAL', description: '' }],
            activeErrorCount: 12,
          }),
        ],
      },
      now,
    );
    render(
      <MantineProvider>
        <StateCounts board={board} large={false} shown={null} onShow={() => undefined} />
        <StatusTiles board={board} now={now} large />
        <LiveIndicator status="reconnecting" large={false} />
      </MantineProvider>,
    );
    expect(screen.getByTestId('state-count-error')).toHaveAttribute('data-count', '1');
    expect(screen.getByTestId('state-count-manual')).toHaveAttribute('data-count', '0');
    const tiles = within(screen.getByTestId('status-tiles')).getAllByTestId(/^status-tile-/);
    expect(tiles.map((el) => el.dataset.testid)).toEqual(['status-tile-2', 'status-tile-1']);
    const working = screen.getByTestId('status-tile-1');
    expect(within(working).getByTestId('status-order')).toHaveTextContent('TRANSPORT_A · T-0001');
    expect(within(working).getByTestId('status-charge')).toHaveTextContent('55 %');
    expect(within(working).getByTestId('status-age')).toHaveAttribute('data-seconds', '3');
    expect(working).toHaveTextContent('seit 10 min');
    expect(
      within(screen.getByTestId('status-tile-2')).getByTestId('status-errors'),
    ).toHaveTextContent('12 aktive Fehler: laserBlocked (Fatal)');
    expect(screen.getByTestId('live-indicator')).toHaveTextContent('Verbinde neu…');
  });

  it("shows only a state's vehicles when its count is pressed, and says so when it has none", () => {
    createI18n('en');
    const now = Date.parse('2026-11-21T15:00:00Z');
    const board = boardFromSnapshot(
      {
        generatedAt: '2026-11-21T15:00:00Z',
        stateOrder: ['error', 'offline', 'manual', 'charging', 'idle', 'working'],
        counts: { working: 2, error: 1 },
        vehicles: [tile(1, {}), tile(2, { state: 'error' }), tile(3, {})],
      },
      now,
    );
    const onShow = vi.fn();
    const view = render(
      <MantineProvider>
        <StateCounts board={board} large={false} shown="working" onShow={onShow} />
        <StatusTiles board={board} now={now} large={false} shown="working" />
      </MantineProvider>,
    );
    const tiles = within(screen.getByTestId('status-tiles')).getAllByTestId(/^status-tile-/);
    expect(tiles.map((el) => el.dataset.testid)).toEqual(['status-tile-1', 'status-tile-3']);
    const working = screen.getByRole('button', { name: /2\s*Working/ });
    expect(working).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(working); // pressed again: all vehicles
    expect(onShow).toHaveBeenLastCalledWith(null);
    fireEvent.click(screen.getByTestId('state-count-error'));
    expect(onShow).toHaveBeenLastCalledWith('error');
    view.unmount();
    render(
      <MantineProvider>
        <StatusTiles board={board} now={now} large={false} shown="charging" />
      </MantineProvider>,
    );
    expect(screen.getByTestId('statusboard-none-in-state')).toHaveTextContent(
      'No vehicle is in the state “Charging” now.',
    );
  });

  it('gives a long name its own lines in display mode, and cuts it short beside the state otherwise', () => {
    createI18n('en');
    const now = Date.parse('2026-11-21T15:00:00Z');
    const long = tile(7, { name: 'MUC Forklift 07 (cold store)', state: 'charging' });
    const board = boardFromSnapshot(
      {
        generatedAt: '2026-11-21T15:00:00Z',
        stateOrder: ['error', 'offline', 'manual', 'charging', 'idle', 'working'],
        counts: { charging: 1 },
        vehicles: [long],
      },
      now,
    );
    const nameIn = (large: boolean) => {
      const view = render(
        <MantineProvider>
          <StatusTiles board={board} now={now} large={large} />
        </MantineProvider>,
      );
      const name = within(view.container).getByTestId('status-name');
      const state = within(view.container).getByTestId('status-state');
      const result = { truncated: name.hasAttribute('data-truncate'), beside: name.parentElement };
      const stateParent = state.parentElement;
      view.unmount();
      return { ...result, besideState: result.beside === stateParent };
    };
    expect(nameIn(true)).toMatchObject({ truncated: false, besideState: false });
    expect(nameIn(false)).toMatchObject({ truncated: true, besideState: true });
  });

  it("names each tile's site on a board of several sites, with the organization where those differ", () => {
    createI18n('en');
    const now = Date.parse('2026-11-21T15:00:00Z');
    const site = (id: number, name: string, organizationId: number, organizationName: string) => ({
      id,
      name,
      organizationId,
      organizationName,
      timeZone: 'Europe/Berlin',
      shifts: [],
    });
    const hamburg = site(1, 'Hamburg DC', 10, 'Nordlogistik');
    const altona = site(2, 'Altona', 10, 'Nordlogistik');
    const munich = site(3, 'Munich', 20, 'Alpenfracht');
    const boardOf = (tiles: StatusTile[]) =>
      boardFromSnapshot(
        {
          generatedAt: '2026-11-21T15:00:00Z',
          stateOrder: ['error', 'offline', 'manual', 'charging', 'idle', 'working'],
          counts: { working: tiles.length },
          vehicles: tiles,
        },
        now,
      );
    const sitesShown = (tiles: StatusTile[], sites: (typeof hamburg)[]) => {
      const view = render(
        <MantineProvider>
          <StatusTiles board={boardOf(tiles)} now={now} large={false} sites={sites} />
        </MantineProvider>,
      );
      const shown = tiles.map(
        (each) =>
          within(view.getByTestId(`status-tile-${each.vehicleId}`)).queryByTestId('status-site')
            ?.textContent ?? null,
      );
      view.unmount();
      return shown;
    };
    const [first, second, third] = [
      tile(1, { siteId: 1 }),
      tile(2, { siteId: 2 }),
      tile(3, { siteId: 3 }),
    ];
    // One organization's two sites: the site's name alone.
    expect(sitesShown([first, second], [hamburg, altona, munich])).toEqual([
      'Hamburg DC',
      'Altona',
    ]);
    // Two organizations: each with its organization.
    expect(sitesShown([first, third], [hamburg, munich])).toEqual([
      'Nordlogistik · Hamburg DC',
      'Alpenfracht · Munich',
    ]);
    // All at one site (whatever else the user may see): no site line.
    expect(sitesShown([first], [hamburg, munich])).toEqual([null]);
  });
});
