import type { StateName, Statusboard, StatusTile, StatusTileEvent } from '../../api/analytics';

/** Worst first, as the server documents it; used when a snapshot lacks its own order. */
export const DEFAULT_STATE_ORDER: readonly StateName[] = [
  'error',
  'offline',
  'manual',
  'charging',
  'idle',
  'working',
];

export interface Board {
  stateOrder: StateName[];
  counts: Record<string, number>;
  tiles: StatusTile[];
  /** Server clock minus this browser's clock (ms), so ages tick right on a skewed TV clock. */
  clockOffsetMs: number;
}

const nameOrder = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/**
 * Worst state first; within a state the longest in it first (a vehicle that never sent a
 * message, `since` null, counts as longest), then by name ("AGV 2" before "AGV 10").
 */
export function sortTiles(
  tiles: readonly StatusTile[],
  stateOrder: readonly StateName[],
): StatusTile[] {
  const rank = (state: StateName) => {
    const index = stateOrder.indexOf(state);
    return index < 0 ? stateOrder.length : index;
  };
  const sinceMs = (tile: StatusTile) =>
    tile.since === null ? Number.NEGATIVE_INFINITY : Date.parse(tile.since);
  return [...tiles].sort(
    (a, b) =>
      rank(a.state) - rank(b.state) || sinceMs(a) - sinceMs(b) || nameOrder.compare(a.name, b.name),
  );
}

export function boardFromSnapshot(snapshot: Statusboard, receivedAtMs: number): Board {
  const stateOrder =
    snapshot.stateOrder.length > 0 ? snapshot.stateOrder : [...DEFAULT_STATE_ORDER];
  return {
    stateOrder,
    counts: { ...snapshot.counts },
    tiles: sortTiles(snapshot.vehicles, stateOrder),
    clockOffsetMs: Date.parse(snapshot.generatedAt) - receivedAtMs,
  };
}

/** A `tile` event: replace that vehicle's tile (or add it), take the counts as given, re-sort. */
export function applyTileEvent(board: Board, event: StatusTileEvent): Board {
  const others = board.tiles.filter((tile) => tile.vehicleId !== event.vehicle.vehicleId);
  return {
    ...board,
    counts: { ...event.counts },
    tiles: sortTiles([...others, event.vehicle], board.stateOrder),
  };
}

/** Seconds since the vehicle's last message by the (server-corrected) clock, or null. */
export function secondsSinceLastMessage(
  tile: StatusTile,
  nowMs: number,
  clockOffsetMs: number,
): number | null {
  if (tile.lastMessageAt === null) {
    return null;
  }
  return Math.max(0, Math.floor((nowMs + clockOffsetMs - Date.parse(tile.lastMessageAt)) / 1000));
}

/** Counts per state in the board's order (a state the server left out counts 0). */
export function orderedCounts(board: Board): Array<{ state: StateName; count: number }> {
  return board.stateOrder.map((state) => ({ state, count: board.counts[state] ?? 0 }));
}

/**
 * Delay before re-opening a stream the browser gave up on (EventSource retries by itself
 * while the connection merely drops; a closed one, e.g. after a 5xx, is re-opened by us):
 * 1 s, 2 s, 4 s ... at most 30 s.
 */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, attempt));
}
