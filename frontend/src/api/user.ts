import type { Language } from '../constants';
import { callApi, clearResponseCache, followSessionRule, request } from './client';
import { dataOf, messageOf } from './envelope';
import type { Schemas } from './schema';
import type { User } from './types';

export type LoginOutcome =
  | { ok: true; user: User }
  | { ok: false; reason: 'credentials' | 'rate_limited' | 'unavailable'; message: string | null };

/** POST /v2/User/login (an excluded route: the login page shows its own errors). */
export async function login({
  email,
  password,
}: {
  email: string;
  password: string;
}): Promise<LoginOutcome> {
  const result = await request('/v2/User/login', {
    method: 'POST',
    body: { email, password } satisfies Schemas['LoginBody'],
  });
  if (result.ok) {
    return { ok: true, user: dataOf<User>(result.body) };
  }
  const message = messageOf(result.body);
  if (result.httpStatus === 429) {
    return { ok: false, reason: 'rate_limited', message };
  }
  if (result.httpStatus === 401 || result.httpStatus === 400 || result.httpStatus === 422) {
    return { ok: false, reason: 'credentials', message };
  }
  return { ok: false, reason: 'unavailable', message };
}

/** The user is fetched at start-up; null when no session exists. */
/**
 * Who is logged in: `user` null without one; `signedOut` only when the server said so
 * (401), not when it could not be asked (no network, a reload cutting the request short).
 */
export async function fetchCurrentUser(): Promise<{ user: User | null; signedOut: boolean }> {
  const result = await request('/v2/User/me');
  return {
    user: result.ok ? dataOf<User>(result.body) : null,
    signedOut: result.httpStatus === 401,
  };
}

/** Logout: path '/v2/User/logout'; it clears the request cache (spec section 7). */
export async function logout(): Promise<void> {
  try {
    await request('/v2/User/logout', { method: 'POST' });
  } finally {
    clearResponseCache();
  }
}

/** Saves the user's language; null: none chosen, the app follows the browser. */
export function saveLanguage({ language }: { language: Language | null }): Promise<User> {
  return callApi<User>('/v2/User/me', {
    method: 'PATCH',
    body: { language } satisfies Schemas['UserPatch'],
  });
}

export type PasswordChangeOutcome =
  | { ok: true; user: User }
  | {
      ok: false;
      reason: 'invalid' | 'rate_limited' | 'session' | 'unavailable';
      message: string | null;
    };

/**
 * POST /v2/User/password, an excluded route: the dialog shows the server's message itself
 * (no error overlay), while an 'authentication failed' answer still ends the session and
 * leads to login like on every other route.
 */
export async function changePassword({
  currentPassword,
  newPassword,
}: {
  currentPassword: string;
  newPassword: string;
}): Promise<PasswordChangeOutcome> {
  const result = await request('/v2/User/password', {
    method: 'POST',
    body: { currentPassword, newPassword } satisfies Schemas['PasswordChange'],
  });
  if (result.ok) {
    return { ok: true, user: dataOf<User>(result.body) };
  }
  const message = messageOf(result.body);
  followSessionRule(message);
  if (result.httpStatus === 429) {
    return { ok: false, reason: 'rate_limited', message };
  }
  if (result.httpStatus === 400 || result.httpStatus === 422) {
    return { ok: false, reason: 'invalid', message };
  }
  if (result.httpStatus === 401) {
    return { ok: false, reason: 'session', message };
  }
  return { ok: false, reason: 'unavailable', message };
}
