import { describe, expect, it } from 'vitest';
import { loginMessageKey } from './loginMessages';

describe('login messages', () => {
  it('shows the expired-session message for ?error=session until an attempt fails', () => {
    expect(loginMessageKey({ urlError: 'session', failure: null })).toBe('login.errorSession');
    expect(loginMessageKey({ urlError: null, failure: null })).toBeNull();
    expect(loginMessageKey({ urlError: 'session', failure: 'credentials' })).toBe(
      'login.errorCredentials',
    );
  });

  it('names wrong credentials, too many attempts, an unreachable server and missing input', () => {
    expect(loginMessageKey({ urlError: null, failure: 'rate_limited' })).toBe(
      'login.errorRateLimited',
    );
    expect(loginMessageKey({ urlError: null, failure: 'unavailable' })).toBe(
      'login.errorUnavailable',
    );
    expect(loginMessageKey({ urlError: null, failure: 'required' })).toBe('login.required');
  });
});
