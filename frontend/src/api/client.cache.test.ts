import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chainHarness } from '../test/chainHarness';
import { failed, fakeFetch, jsonResponse, ok } from '../test/fakeServer';
import { callApi, request, responseCacheSize } from './client';
import { logout } from './user';

const { recorded, reset, setup } = chainHarness();
beforeEach(reset);
afterEach(() => vi.useRealTimers());

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
    expect(recorded.authFailures).toBe(1);
    expect(recorded.errors).toEqual([]);
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

describe('a GET that opts out of the cache (cache: false)', () => {
  it('asks the server every time', async () => {
    const fetchMock = setup(
      fakeFetch(
        () => jsonResponse(ok({ percent: 10 })),
        () => jsonResponse(ok({ percent: 60 })),
      ),
    );
    await callApi('/v2/Admin/Jobs/1', { cache: false });
    const second = await callApi<{ percent: number }>('/v2/Admin/Jobs/1', { cache: false });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(second.percent).toBe(60);
    expect(responseCacheSize()).toBe(0);
  });
});
