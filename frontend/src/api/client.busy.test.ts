import { beforeEach, describe, expect, it } from 'vitest';
import { chainHarness } from '../test/chainHarness';
import { failed, fakeFetch, jsonResponse, ok } from '../test/fakeServer';
import { type ApiFailure, callApi, request, responseCacheSize } from './client';

const { recorded, reset, setup } = chainHarness();
beforeEach(reset);

const BUSY_MESSAGE = 'the server is busy; try again in a moment';

function busy(retryAfter: string | null = '1'): Response {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (retryAfter !== null) {
    headers['Retry-After'] = retryAfter;
  }
  return new Response(JSON.stringify(failed(BUSY_MESSAGE)), { status: 503, headers });
}

/** The waits the chain asked for, without spending them. */
function recordWaits() {
  const waits: number[] = [];
  return { waits, wait: async (ms: number) => void waits.push(ms), random: () => 0.5 };
}

describe('a busy server (503 with Retry-After)', () => {
  it('is waited for and asked again: no error overlay, the answer is cached', async () => {
    const { waits, ...hooks } = recordWaits();
    const fetchMock = setup(
      fakeFetch(
        () => busy('1'),
        () => busy('2'),
        () => jsonResponse(ok({ tiles: [] })),
      ),
      hooks,
    );
    const result = await request('/v2/Analytics/Dashboard?from=a&to=b');
    expect(result).toEqual({ ok: true, httpStatus: 200, body: ok({ tiles: [] }) });
    // Retry-After 1 s and 2 s, each with a quarter added (random 0.5 of the 50 % jitter).
    expect(waits).toEqual([1250, 2500]);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(recorded.errors).toEqual([]);
    expect(responseCacheSize()).toBe(1);
  });

  it('sends a write again unchanged', async () => {
    const { waits, ...hooks } = recordWaits();
    const fetchMock = setup(
      fakeFetch(
        () => busy(),
        () => jsonResponse(ok(null)),
      ),
      hooks,
    );
    await request('/v2/User/dashboard-layout', { method: 'PUT', body: [{ id: 'a' }] });
    const [first, second] = fetchMock.mock.calls;
    expect(second).toEqual(first);
    expect(second?.[1]?.body).toBe('[{"id":"a"}]');
    expect(waits).toHaveLength(1);
  });

  it('after three retries takes the normal error path with the server message', async () => {
    const { waits, ...hooks } = recordWaits();
    const fetchMock = setup(
      fakeFetch(
        () => busy(),
        () => busy(),
        () => busy(),
        () => busy(),
      ),
      hooks,
    );
    await expect(callApi('/v2/Vehicles')).rejects.toMatchObject({
      name: 'ApiFailure',
      httpStatus: 503,
      message: BUSY_MESSAGE,
    } satisfies Partial<ApiFailure>);
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(waits).toEqual([1250, 1250, 1250]);
    expect(recorded.errors).toMatchObject([{ type: 'NETWORK', message: BUSY_MESSAGE }]);
    expect(responseCacheSize()).toBe(0);
  });

  it('a 503 without Retry-After is an error at once', async () => {
    const { waits, ...hooks } = recordWaits();
    const fetchMock = setup(
      fakeFetch(() => busy(null)),
      hooks,
    );
    expect((await request('/v2/Vehicles')).ok).toBe(false);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(waits).toEqual([]);
    expect(recorded.errors).toMatchObject([{ type: 'NETWORK', message: BUSY_MESSAGE }]);
  });

  it('a request given up while waiting ends as an abort, not as an error', async () => {
    const controller = new AbortController();
    const fetchMock = setup(
      fakeFetch(() => {
        controller.abort();
        return busy('1');
      }),
    );
    await expect(request('/v2/Vehicles', { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(recorded.errors).toEqual([]);
  });
});
