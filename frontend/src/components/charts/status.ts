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
    const message = error instanceof Error ? error.message : undefined;
    return { kind: 'error', message, onRetry };
  }
  if (isPending) {
    return { kind: 'loading' };
  }
  return isEmpty ? { kind: 'empty', reason: emptyReason } : { kind: 'ready' };
}
