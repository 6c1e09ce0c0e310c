import { describe, expect, it } from 'vitest';
import type { StatusTile } from '../../api/analytics';
import {
  applyTileEvent,
  boardFromSnapshot,
  orderedCounts,
  reconnectDelayMs,
  secondsSinceLastMessage,
  sortTiles,
} from './statusboardModel';

function tile(vehicleId: number, overrides: Partial<StatusTile> = {}): StatusTile {
  return {
    vehicleId,
    name: `AGV ${vehicleId}`,
    siteId: 1,
    state: 'working',
    since: '2026-11-21T14:00:00Z',
    orderId: `ORDER-${vehicleId}`,
    workflow: 'TRANSPORT_A',
    charge: 60,
    charging: false,
    activeErrors: [],
    activeErrorCount: 0,
    lastMessageAt: '2026-11-21T14:59:58Z',
    secondsSinceLastMessage: 2,
    ...overrides,
  };
}

const ORDER = ['error', 'offline', 'manual', 'charging', 'idle', 'working'] as const;

describe('sortTiles', () => {
  it('puts the worst state first, then the longest in it, then by name', () => {
    const tiles = [
      tile(10, { state: 'working' }),
      tile(2, { state: 'working' }),
      tile(3, { state: 'error', since: '2026-11-21T14:50:00Z' }),
      tile(4, { state: 'error', since: '2026-11-21T14:40:00Z' }),
      tile(5, { state: 'offline', since: null, lastMessageAt: null }),
      tile(6, { state: 'offline', since: '2026-11-21T13:00:00Z' }),
      tile(7, { state: 'idle' }),
    ];
    expect(sortTiles(tiles, [...ORDER]).map((t) => t.vehicleId)).toEqual([4, 3, 5, 6, 7, 2, 10]);
  });
});

describe('board', () => {
  const snapshot = {
    generatedAt: '2026-11-21T15:00:00Z',
    stateOrder: [...ORDER],
    counts: { error: 0, offline: 0, manual: 0, charging: 0, idle: 1, working: 1 },
    vehicles: [tile(1), tile(2, { state: 'idle' })],
  };

  it('takes a snapshot sorted and remembers the server clock offset', () => {
    const board = boardFromSnapshot(snapshot, Date.parse('2026-11-21T14:59:50Z'));
    expect(board.tiles.map((t) => t.vehicleId)).toEqual([2, 1]);
    expect(board.clockOffsetMs).toBe(10_000);
  });

  it('replaces a tile from a live event, re-sorts and takes the counts', () => {
    const board = boardFromSnapshot(snapshot, Date.parse('2026-11-21T15:00:00Z'));
    const counts = { error: 1, offline: 0, manual: 0, charging: 0, idle: 1, working: 0 };
    const next = applyTileEvent(board, {
      vehicle: tile(1, {
        state: 'error',
        activeErrors: [{ errorType: 'laserBlocked', level: 'FATAL', description: '' }],
        activeErrorCount: 1,
      }),
      counts,
    });
    expect(next.tiles.map((t) => [t.vehicleId, t.state])).toEqual([
      [1, 'error'],
      [2, 'idle'],
    ]);
    expect(next.tiles).toHaveLength(2);
    expect(next.counts).toEqual(counts);
    expect(board.tiles[1]?.state).toBe('working');
    expect(orderedCounts(next).map((c) => c.state)).toEqual([...ORDER]);
    expect(orderedCounts(next)[0]).toEqual({ state: 'error', count: 1 });
  });

  it('adds a tile it did not know', () => {
    const board = boardFromSnapshot(snapshot, Date.parse('2026-11-21T15:00:00Z'));
    expect(
      applyTileEvent(board, { vehicle: tile(9, { state: 'manual' }), counts: {} }).tiles[0]
        ?.vehicleId,
    ).toBe(9);
  });
});

describe('clock and reconnect', () => {
  it('counts seconds since the last message with the server clock', () => {
    const now = Date.parse('2026-11-21T15:00:05Z');
    expect(
      secondsSinceLastMessage(tile(1, { lastMessageAt: '2026-11-21T15:00:00Z' }), now, 0),
    ).toBe(5);
    expect(
      secondsSinceLastMessage(tile(1, { lastMessageAt: '2026-11-21T15:00:00Z' }), now, 3000),
    ).toBe(8);
    expect(
      secondsSinceLastMessage(tile(1, { lastMessageAt: '2026-11-21T15:00:09Z' }), now, 0),
    ).toBe(0);
    expect(secondsSinceLastMessage(tile(1, { lastMessageAt: null }), now, 0)).toBeNull();
  });

  it('backs off exponentially up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(reconnectDelayMs)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
  });
});
