import { deleteCookie, readCookie, writeCookie } from '../api/cookies';
import { CONSENT_ANSWERED_COOKIE, CONSENT_COOKIE_MAX_AGE_S, STATISTICS_COOKIE } from '../constants';

export type ConsentState = 'unanswered' | 'granted' | 'denied';

/** The user's statistics consent as recorded in cookies. */
export function consentState(cookies: string): ConsentState {
  if (readCookie(STATISTICS_COOKIE, cookies) !== null) {
    return 'granted';
  }
  return readCookie(CONSENT_ANSWERED_COOKIE, cookies) !== null ? 'denied' : 'unanswered';
}

/** Sets (granted) or clears (denied) the statistics cookie and remembers the answer. */
export function recordConsent(granted: boolean): void {
  writeCookie(CONSENT_ANSWERED_COOKIE, granted ? 'granted' : 'denied', CONSENT_COOKIE_MAX_AGE_S);
  if (granted) {
    writeCookie(STATISTICS_COOKIE, '1', CONSENT_COOKIE_MAX_AGE_S);
  } else {
    deleteCookie(STATISTICS_COOKIE);
  }
}
