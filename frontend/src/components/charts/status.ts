import { ApiFailure } from '../../api/client';
import type { ChartStatus } from './ChartCard';
import type { EmptyReason } from './emptyReason';

/** Maps a TanStack query (or any load) to the status a ChartCard shows. */
export function chartStatus({
  isPending,
  error,
  isEmpty,
  emptyReason,
  onRetry,
}: {
  isPending: boolean;
  error: unknown;
  isEmpty: boolean;
  emptyReason: EmptyReason;
  onRetry?: () => void;
}): ChartStatus {
  if (error) {
    // The server's words; without them the card says "could not be loaded" in the user's language.
    const message = error instanceof ApiFailure ? (error.serverMessage ?? undefined) : undefined;
    return { kind: 'error', message, onRetry };
  }
  if (isPending) {
    return { kind: 'loading' };
  }
  return isEmpty ? { kind: 'empty', reason: emptyReason } : { kind: 'ready' };
}
