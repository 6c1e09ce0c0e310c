import { beforeEach, describe, expect, it, vi } from 'vitest';
import { request, responseCacheSize } from '../api/client';
import type { User } from '../api/types';
import { createI18n } from '../i18n';
import { failed, fakeFetch, jsonResponse, ok } from '../test/fakeServer';
import { clearError, currentError } from './errorStore';
import { installRequestChain } from './requestChain';
import { endSession, getSession, startSession } from './session';

const user: User = {
  id: 1,
  email: 'customer@demo.fleetscope',
  role: 'customer',
  organizationId: 1,
  displayName: null,
  language: 'en',
};

describe('request chain wired to the app', () => {
  const navigate = vi.fn();

  beforeEach(() => {
    createI18n('en');
    navigate.mockReset();
    clearError();
    endSession();
    installRequestChain({ navigate });
  });

  it('authentication failed while logged in: cache cleared, logged out, sent to login?error=session', async () => {
    startSession(user);
    const fetchMock = fakeFetch(
      () => jsonResponse(ok([1])),
      () => jsonResponse(failed('authentication failed'), 401),
    );
    vi.stubGlobal('fetch', fetchMock);
    await request('/v2/Sites');
    expect(responseCacheSize()).toBe(1);
    await request('/v2/Vehicles');
    expect(getSession()).toEqual({ status: 'anonymous', user: null });
    expect(navigate).toHaveBeenCalledWith('/login?error=session');
    expect(responseCacheSize()).toBe(0);
    expect(currentError()).toBeNull();
    vi.unstubAllGlobals();
  });

  it('authentication failed while logged out (start-up check) does not navigate', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch(() => jsonResponse(failed('authentication failed'), 401)),
    );
    await request('/v2/User/me');
    expect(navigate).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  it('a network error carries the logged-in user into the overlay', async () => {
    startSession(user);
    vi.stubGlobal(
      'fetch',
      fakeFetch(() => jsonResponse(failed('site 9 not found'), 404)),
    );
    await request('/v2/Sites/9');
    expect(currentError()).toMatchObject({
      type: 'NETWORK',
      user: 'customer@demo.fleetscope',
      message: 'site 9 not found',
    });
    vi.unstubAllGlobals();
  });

  it('going offline shows the no-internet error; it stays until closed', () => {
    window.dispatchEvent(new Event('offline'));
    expect(currentError()?.type).toBe('NO_INTERNET');
    window.dispatchEvent(new Event('online'));
    expect(currentError()?.type).toBe('NO_INTERNET');
  });
});
