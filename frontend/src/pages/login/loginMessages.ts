import type { LoginOutcome } from '../../api/user';

type FailureReason = Extract<LoginOutcome, { ok: false }>['reason'];

/** The i18n key of the message the login page shows, from the URL or a failed attempt. */
export function loginMessageKey({
  urlError,
  failure,
}: {
  urlError: string | null;
  failure: FailureReason | 'required' | null;
}): string | null {
  if (failure === 'required') {
    return 'login.required';
  }
  if (failure === 'credentials') {
    return 'login.errorCredentials';
  }
  if (failure === 'rate_limited') {
    return 'login.errorRateLimited';
  }
  if (failure === 'unavailable') {
    return 'login.errorUnavailable';
  }
  return urlError === 'session' ? 'login.errorSession' : null;
}
