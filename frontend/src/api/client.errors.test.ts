import { beforeEach, describe, expect, it } from 'vitest';
import { chainHarness } from '../test/chainHarness';
import { failed, fakeFetch, jsonResponse, ok } from '../test/fakeServer';
import { deleteOrganization, listOrganizations } from './admin';
import { ApiFailure, callApi, isExcludedRoute, request, responseCacheSize } from './client';

const { recorded, reset, setup } = chainHarness();
beforeEach(reset);

describe('excluded routes', () => {
  it('lists login, logout, password, administration, events and live streams', () => {
    expect(isExcludedRoute('/v2/User/login')).toBe(true);
    expect(isExcludedRoute('/v2/User/logout')).toBe(true);
    expect(isExcludedRoute('/v2/User/password')).toBe(true);
    expect(isExcludedRoute('/v2/Admin/Users?page=1')).toBe(true);
    expect(isExcludedRoute('/v2/Administration')).toBe(false);
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
    expect(recorded.errors).toEqual([]);
    expect(recorded.authFailures).toBe(0);
  });
});

describe('error catalogue', () => {
  it('status false on a non-excluded route: network error with message, url, body, user', async () => {
    setup(fakeFetch(() => jsonResponse(failed('dateSelector.from: after to'), 422)));
    const result = await request('/v2/User/settings', { method: 'PATCH', body: { b: 1, a: 2 } });
    expect(result.ok).toBe(false);
    expect(recorded.errors).toEqual([
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
    expect(recorded.errors[0]?.type).toBe('NETWORK');
  });

  it('a non-envelope error page becomes a network error naming the HTTP status', async () => {
    setup(fakeFetch(() => new Response('<html>bad gateway</html>', { status: 502 })));
    await request('/v2/X');
    expect(recorded.errors[0]?.message).toBe('HTTP 502');
    // ...which is not the server's message: pages say it in the user's language.
    setup(fakeFetch(() => new Response('<html>bad gateway</html>', { status: 502 })));
    const failure = await callApi('/v2/Y').catch((error: unknown) => error);
    expect(failure).toMatchObject({ httpStatus: 502, serverMessage: null });
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
    expect(recorded.errors).toEqual([]);
  });

  it('transport failure while the browser is offline is a no-internet error', async () => {
    recorded.online = false;
    setup(
      fakeFetch(() => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await request('/v2/X', { method: 'POST', body: { q: 1 } });
    expect(recorded.errors).toHaveLength(1);
    expect(recorded.errors[0]).toMatchObject({
      type: 'NO_INTERNET',
      url: '/v2/X',
      body: '{"q":1}',
    });
  });

  it('authentication failed: no overlay, logout hook', async () => {
    setup(fakeFetch(() => jsonResponse(failed('authentication failed'), 401)));
    await expect(callApi('/v2/User/me')).rejects.toBeInstanceOf(ApiFailure);
    expect(recorded.authFailures).toBe(1);
    expect(recorded.errors).toEqual([]);
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

describe('excluded routes inside a session (password dialog, Administration app)', () => {
  it('stay out of the error overlay, the message reaches the caller', async () => {
    setup(fakeFetch(() => jsonResponse(failed("organization 'X' still has 2 sites"), 409)));
    await expect(deleteOrganization(1)).rejects.toThrow("organization 'X' still has 2 sites");
    expect(recorded.errors).toEqual([]);
  });

  it('read what is stored now, never the cache', async () => {
    const fetchMock = setup(
      fakeFetch(
        () => jsonResponse(ok([])),
        () => jsonResponse(ok([])),
      ),
    );
    await listOrganizations();
    await listOrganizations();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(responseCacheSize()).toBe(0);
  });

  it('an authentication failure still logs out, once', async () => {
    setup(fakeFetch(() => jsonResponse(failed('authentication failed'), 401)));
    await expect(listOrganizations()).rejects.toBeInstanceOf(ApiFailure);
    expect(recorded.authFailures).toBe(1);
    expect(recorded.errors).toEqual([]);
  });

  it('other failures leave the session alone', async () => {
    setup(fakeFetch(() => jsonResponse(failed('forbidden'), 403)));
    await expect(listOrganizations()).rejects.toThrow('forbidden');
    expect(recorded.authFailures).toBe(0);
  });
});
