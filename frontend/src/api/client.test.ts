import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failed, fakeFetch, jsonResponse, ok } from '../test/fakeServer';
import {
  ApiFailure,
  callApi,
  clearResponseCache,
  configureRequestChain,
  isExcludedRoute,
  request,
  responseCacheSize,
} from './client';
import type { AppError } from './errors';
import { logout } from './user';

let reported: AppError[];
let authFailures: number;
let online: boolean;

function setup(fetchMock: ReturnType<typeof fakeFetch>) {
  configureRequestChain({
    fetch: fetchMock as unknown as typeof fetch,
    currentUser: () => 'customer@demo.fleetscope',
    reportError: (error) => reported.push(error),
    onAuthenticationFailed: () => {
      authFailures += 1;
    },
    isOnline: () => online,
  });
  return fetchMock;
}

beforeEach(() => {
  clearResponseCache();
  reported = [];
  authFailures = 0;
  online = true;
});

afterEach(() => {
  vi.useRealTimers();
});

describe('response cache', () => {
  it('serves the same url and body (keys in any order) from the cache', async () => {
    const fetchMock = setup(fakeFetch(() => jsonResponse(ok({ n: 1 }))));
    const first = await request('/v2/Query', {
      method: 'POST',
      cache: true,
      body: { a: 1, b: [1, 2] },
    });
    const second = await request('/v2/Query', {
      method: 'POST',
      cache: true,
      body: { b: [1, 2], a: 1 },
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(second).toEqual(first);
  });

  it('a different body is a different entry', async () => {
    const fetchMock = setup(
      fakeFetch(
        () => jsonResponse(ok(1)),
        () => jsonResponse(ok(2)),
      ),
    );
    await request('/v2/Query', { method: 'POST', cache: true, body: { a: 1 } });
    await request('/v2/Query', { method: 'POST', cache: true, body: { a: 2 } });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('expires after exactly 3 minutes', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-05T08:00:00Z'));
    const fetchMock = setup(
      fakeFetch(
        () => jsonResponse(ok('old')),
        () => jsonResponse(ok('new')),
      ),
    );
    await request('/v2/Vehicles');
    vi.advanceTimersByTime(3 * 60 * 1000 - 1);
    expect(await callApi('/v2/Vehicles')).toBe('old');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(await callApi('/v2/Vehicles')).toBe('new');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('does not cache failed responses', async () => {
    const fetchMock = setup(
      fakeFetch(
        () => jsonResponse(failed('broken'), 500),
        () => jsonResponse(ok('fine')),
      ),
    );
    expect((await request('/v2/Sites')).ok).toBe(false);
    expect(await callApi('/v2/Sites')).toBe('fine');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('a refresh request clears the cache and asks the server', async () => {
    const fetchMock = setup(
      fakeFetch(
        () => jsonResponse(ok('a')),
        () => jsonResponse(ok('b')),
        () => jsonResponse(ok('c')),
      ),
    );
    await request('/v2/Sites');
    await request('/v2/Vehicles');
    expect(responseCacheSize()).toBe(2);
    expect(await callApi('/v2/Sites', { refresh: true })).toBe('c');
    expect(responseCacheSize()).toBe(1);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('logout clears the cache', async () => {
    setup(
      fakeFetch(
        () => jsonResponse(ok('a')),
        () => jsonResponse(ok(null)),
      ),
    );
    await request('/v2/Sites');
    expect(responseCacheSize()).toBe(1);
    await logout();
    expect(responseCacheSize()).toBe(0);
  });

  it('authentication failure clears the cache and logs out once', async () => {
    setup(
      fakeFetch(
        () => jsonResponse(ok('a')),
        () => jsonResponse(failed('authentication failed'), 401),
      ),
    );
    await request('/v2/Sites');
    const result = await request('/v2/Vehicles');
    expect(result.ok).toBe(false);
    expect(responseCacheSize()).toBe(0);
    expect(authFailures).toBe(1);
    expect(reported).toEqual([]);
  });

  it('a successful write drops the cached reads of the same url only', async () => {
    const fetchMock = setup(
      fakeFetch(
        () => jsonResponse(ok({ v: 1 })),
        () => jsonResponse(ok('sites')),
        () => jsonResponse(ok({ v: 2 })),
        () => jsonResponse(ok({ v: 2 })),
      ),
    );
    await request('/v2/User/settings');
    await request('/v2/Sites');
    await request('/v2/User/settings', { method: 'PATCH', body: { x: 1 } });
    expect(await callApi('/v2/User/settings')).toEqual({ v: 2 });
    await request('/v2/Sites');
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });

  it('never caches writes', async () => {
    const fetchMock = setup(
      fakeFetch(
        () => jsonResponse(ok(1)),
        () => jsonResponse(ok(1)),
      ),
    );
    await request('/v2/User/settings', { method: 'PATCH', body: { a: 1 } });
    await request('/v2/User/settings', { method: 'PATCH', body: { a: 1 } });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('excluded routes', () => {
  it('lists login, logout, events and live streams', () => {
    expect(isExcludedRoute('/v2/User/login')).toBe(true);
    expect(isExcludedRoute('/v2/User/logout')).toBe(true);
    expect(isExcludedRoute('/v2/Events')).toBe(true);
    expect(isExcludedRoute('/v2/Live/stream')).toBe(true);
    expect(isExcludedRoute('/v2/Statusboard/stream?x=1')).toBe(true);
    expect(isExcludedRoute('/v2/User/me')).toBe(false);
    expect(isExcludedRoute('/v2/User/loginHistory')).toBe(false);
  });

  it('skip the cache', async () => {
    const fetchMock = setup(
      fakeFetch(
        () => jsonResponse(ok(1)),
        () => jsonResponse(ok(1)),
      ),
    );
    await request('/v2/Events', { method: 'POST', cache: true, body: { a: 1 } });
    await request('/v2/Events', { method: 'POST', cache: true, body: { a: 1 } });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('skip the error handling, also for authentication failures', async () => {
    setup(
      fakeFetch(
        () => jsonResponse(failed('invalid email or password'), 401),
        () => jsonResponse(failed('authentication failed'), 401),
      ),
    );
    await request('/v2/User/login', { method: 'POST', body: { email: 'x', password: 'y' } });
    await request('/v2/Events', { method: 'POST', body: {} });
    expect(reported).toEqual([]);
    expect(authFailures).toBe(0);
  });
});

describe('error catalogue', () => {
  it('status false on a non-excluded route: network error with message, url, body, user', async () => {
    setup(fakeFetch(() => jsonResponse(failed('dateSelector.from: after to'), 422)));
    const result = await request('/v2/User/settings', { method: 'PATCH', body: { b: 1, a: 2 } });
    expect(result.ok).toBe(false);
    expect(reported).toEqual([
      {
        application: 'analytics',
        type: 'NETWORK',
        url: '/v2/User/settings',
        user: 'customer@demo.fleetscope',
        message: 'dateSelector.from: after to',
        body: '{"b":1,"a":2}',
      },
    ]);
  });

  it('status false with HTTP 200 is a network error too', async () => {
    setup(fakeFetch(() => jsonResponse(failed('no'))));
    expect((await request('/v2/X')).ok).toBe(false);
    expect(reported[0]?.type).toBe('NETWORK');
  });

  it('a non-envelope error page becomes a network error naming the HTTP status', async () => {
    setup(fakeFetch(() => new Response('<html>bad gateway</html>', { status: 502 })));
    await request('/v2/X');
    expect(reported[0]?.message).toBe('HTTP 502');
  });

  it('transport failure yields an empty failed body', async () => {
    setup(
      fakeFetch(() => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const result = await request('/v2/X');
    expect(result).toEqual({
      ok: false,
      httpStatus: 0,
      body: { status: false, msg: null, data: null },
    });
    expect(reported).toEqual([]);
  });

  it('transport failure while the browser is offline is a no-internet error', async () => {
    online = false;
    setup(
      fakeFetch(() => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await request('/v2/X', { method: 'POST', body: { q: 1 } });
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ type: 'NO_INTERNET', url: '/v2/X', body: '{"q":1}' });
  });

  it('authentication failed: no overlay, logout hook', async () => {
    setup(fakeFetch(() => jsonResponse(failed('authentication failed'), 401)));
    await expect(callApi('/v2/User/me')).rejects.toBeInstanceOf(ApiFailure);
    expect(authFailures).toBe(1);
    expect(reported).toEqual([]);
  });

  it('aborts are rethrown, not turned into failures', async () => {
    setup(
      fakeFetch(() => {
        throw new DOMException('aborted', 'AbortError');
      }),
    );
    await expect(request('/v2/X')).rejects.toThrow('aborted');
  });
});

describe('request details', () => {
  it('writes send the CSRF cookie value as X-CSRF-Token and JSON bodies', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: test sets the server's readable cookie
    document.cookie = 'fleetscope_csrf=tok123; path=/';
    const fetchMock = setup(
      fakeFetch(
        () => jsonResponse(ok(1)),
        () => jsonResponse(ok(1)),
      ),
    );
    await request('/v2/User/settings', { method: 'PATCH', body: { a: 1 } });
    await request('/v2/Sites');
    const writeInit = fetchMock.mock.calls[0]?.[1];
    const headers = writeInit?.headers as Record<string, string>;
    expect(headers['X-CSRF-Token']).toBe('tok123');
    expect(headers['Content-Type']).toBe('application/json');
    expect(writeInit?.body).toBe('{"a":1}');
    const readHeaders = fetchMock.mock.calls[1]?.[1]?.headers as Record<string, string>;
    expect(readHeaders['X-CSRF-Token']).toBeUndefined();
  });

  it('callApi returns data of the kept envelope and throws ApiFailure with the server message', async () => {
    setup(
      fakeFetch(
        () => jsonResponse(ok({ id: 7 })),
        () => jsonResponse(failed('vehicle 9 not found'), 404),
      ),
    );
    expect(await callApi('/v2/A')).toEqual({ id: 7 });
    await expect(callApi('/v2/B')).rejects.toMatchObject({
      message: 'vehicle 9 not found',
      httpStatus: 404,
    });
  });
});
