import { configureRequestChain } from '../api/client';
import { makeError } from '../api/errors';
import { reportError } from './errorStore';
import { endSession, getSession } from './session';

/**
 * Wires the request chain to the app: error overlay, user for error reports, and the
 * authentication-failed rule of spec section 4 (logged out, sent to login?error=session).
 */
export function installRequestChain({ navigate }: { navigate: (to: string) => void }): void {
  configureRequestChain({
    currentUser: () => getSession().user?.email ?? null,
    reportError,
    onAuthenticationFailed: () => {
      if (getSession().status === 'authenticated') {
        endSession();
        navigate('/login?error=session');
      }
    },
  });

  window.addEventListener('offline', () => {
    reportError(
      makeError({
        type: 'NO_INTERNET',
        url: window.location.href,
        user: getSession().user?.email ?? null,
      }),
    );
  });
  // Back online, the overlay stays until it is closed: spec section 4 clears it on close only.
}
