import { useSyncExternalStore } from 'react';
import { clearResponseCache } from '../api/client';
import { deleteCookie, readCookie } from '../api/cookies';
import type { User } from '../api/types';
import { fetchCurrentUser } from '../api/user';
import { resetLoadedVehicles } from '../api/vehicles';
import { CSRF_COOKIE } from '../constants';
import { applyLanguage, normalizeLanguage } from '../i18n';
import { queryClient } from './queryClient';

/** Login state of spec section 4, as a small store React subscribes to. */
export interface SessionState {
  status: 'unknown' | 'authenticated' | 'anonymous';
  user: User | null;
  /** Anonymous at start-up, but a session was there before (see `sessionLeftBehind`). */
  lost?: boolean;
}

/**
 * A session the server no longer knows (expired, revoked, the user deactivated) while the
 * page was closed: the readable CSRF cookie set with it at login is still there (logging
 * out removes it). Removed here, so the expired-session message shows once. Only on the
 * server's word (401): a start-up cut short keeps the cookie of a session that still holds.
 */
function sessionLeftBehind(): boolean {
  if (readCookie(CSRF_COOKIE) === null) {
    return false;
  }
  deleteCookie(CSRF_COOKIE);
  return true;
}

let state: SessionState = { status: 'unknown', user: null };
let pending: Promise<User | null> | null = null;
const listeners = new Set<() => void>();

function setState(next: SessionState): void {
  state = next;
  for (const listener of listeners) {
    listener();
  }
}

export function getSession(): SessionState {
  return state;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

/** The logged-in user; fetched once at start-up, afterwards answered from the store. */
export function ensureSession(): Promise<User | null> {
  if (state.status !== 'unknown') {
    return Promise.resolve(state.user);
  }
  if (!pending) {
    pending = fetchCurrentUser()
      .then(({ user, signedOut }) => {
        if (user) {
          startSession(user);
        } else {
          setState({ status: 'anonymous', user: null, lost: signedOut && sessionLeftBehind() });
        }
        return user;
      })
      .finally(() => {
        pending = null;
      });
  }
  return pending;
}

export function startSession(user: User): void {
  // Another user may have been logged in before: nothing of theirs may survive.
  resetLoadedVehicles();
  queryClient.clear();
  setState({ status: 'authenticated', user });
  // None chosen: the language of this device (the login page's, else the browser's) stays.
  if (user.language) {
    void applyLanguage(normalizeLanguage(user.language));
  }
}

export function updateSessionUser(user: User): void {
  if (state.status === 'authenticated') {
    setState({ status: 'authenticated', user });
  }
}

/** Local end of a session (after logout or an authentication failure). */
export function endSession(): void {
  clearResponseCache();
  resetLoadedVehicles();
  queryClient.clear();
  setState({ status: 'anonymous', user: null });
}

/** Forget what is known locally; the next `ensureSession` asks the server again. */
export function resetSession(): void {
  endSession();
  setState({ status: 'unknown', user: null });
}
