import { describe, expect, it } from 'vitest';
import { BUSY_RETRIES, busyRetryDelayMs, retryAfterMs, waitUnlessAborted } from './busyRetry';

const NOW = Date.parse('2026-11-25T10:00:00Z');
const busy = { status: 503, retryAfter: '1', retriesDone: 0, now: NOW, random: 0 };

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates', () => {
    expect(retryAfterMs('2', NOW)).toBe(2000);
    expect(retryAfterMs(' 0 ', NOW)).toBe(0);
    expect(retryAfterMs('Wed, 25 Nov 2026 10:00:03 GMT', NOW)).toBe(3000);
    expect(retryAfterMs('Wed, 25 Nov 2026 09:59:00 GMT', NOW)).toBe(0);
    expect(retryAfterMs(null, NOW)).toBeNull();
    expect(retryAfterMs('soon', NOW)).toBeNull();
    expect(retryAfterMs('-1', NOW)).toBeNull();
  });
});

describe('busyRetryDelayMs', () => {
  it('waits what the server asks, plus up to half of it at random', () => {
    expect(busyRetryDelayMs(busy)).toBe(1000);
    expect(busyRetryDelayMs({ ...busy, random: 0.5 })).toBe(1250);
    expect(busyRetryDelayMs({ ...busy, random: 0.999 })).toBe(1500);
  });

  it('caps a long wait and keeps a short floor', () => {
    expect(busyRetryDelayMs({ ...busy, retryAfter: '120' })).toBe(4000);
    expect(busyRetryDelayMs({ ...busy, retryAfter: '0' })).toBe(250);
  });

  it('retries only a 503 with Retry-After, and only so often', () => {
    expect(busyRetryDelayMs({ ...busy, retriesDone: BUSY_RETRIES - 1 })).toBe(1000);
    expect(busyRetryDelayMs({ ...busy, retriesDone: BUSY_RETRIES })).toBeNull();
    expect(busyRetryDelayMs({ ...busy, retryAfter: null })).toBeNull();
    expect(busyRetryDelayMs({ ...busy, status: 500 })).toBeNull();
    expect(busyRetryDelayMs({ ...busy, status: 429 })).toBeNull();
  });
});

describe('waitUnlessAborted', () => {
  it('rejects with an AbortError when the caller gives up', async () => {
    const controller = new AbortController();
    const waiting = waitUnlessAborted(60_000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    controller.abort();
    await expect(waitUnlessAborted(10, controller.signal)).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
