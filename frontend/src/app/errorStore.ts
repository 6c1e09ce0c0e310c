import { useSyncExternalStore } from 'react';
import type { AppError } from '../api/errors';

/** The error overlay's state (spec section 4): set when an error occurs, cleared on close. */
let current: AppError | null = null;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) {
    listener();
  }
}

/** The first error stays until it is closed, so a burst of failures does not flicker. */
export function reportError(error: AppError): void {
  if (current) {
    return;
  }
  current = error;
  emit();
}

export function clearError(): void {
  current = null;
  emit();
}

export function currentError(): AppError | null {
  return current;
}

export function subscribeErrors(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useCurrentError(): AppError | null {
  return useSyncExternalStore(subscribeErrors, currentError, currentError);
}
