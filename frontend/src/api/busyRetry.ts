/**
 * A server at capacity answers 503 with `Retry-After` (product spec section 6): the call was
 * not carried out and may simply be made again. The request chain waits that long (capped,
 * with jitter so that many waiting pages do not come back at the same instant) and tries
 * again, a bounded number of times; only then does the 503 reach the error handling.
 */

/** Tries after the first answer; with the server's default of 1 s, about 4 s in all. */
export const BUSY_RETRIES = 3;
/** A longer Retry-After is shortened to this: the user is waiting for the page. */
export const BUSY_WAIT_CAP_MS = 4_000;
/** Retry-After 0 (or a date in the past) still waits this long. */
export const BUSY_WAIT_FLOOR_MS = 250;
/** Up to this share is added at random to each wait. */
export const BUSY_JITTER = 0.5;

/** `Retry-After` in milliseconds from now: delta-seconds or an HTTP date; null if absent. */
export function retryAfterMs(header: string | null, now: number): number | null {
  const value = header?.trim();
  if (!value) {
    return null;
  }
  if (/^\d+$/.test(value)) {
    return Number(value) * 1000;
  }
  // An HTTP date ("Wed, 25 Nov 2026 10:00:03 GMT"); Date.parse alone would read "-1" as a year.
  const at = /[A-Za-z]/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * How long to wait before trying a busy answer again, or null when it is no busy answer
 * (another status, or a 503 without `Retry-After`) or the retries are used up.
 * `random` is in [0, 1).
 */
export function busyRetryDelayMs({
  status,
  retryAfter,
  retriesDone,
  now,
  random,
}: {
  status: number;
  retryAfter: string | null;
  retriesDone: number;
  now: number;
  random: number;
}): number | null {
  if (status !== 503 || retriesDone >= BUSY_RETRIES) {
    return null;
  }
  const asked = retryAfterMs(retryAfter, now);
  if (asked === null) {
    return null;
  }
  const base = Math.min(BUSY_WAIT_CAP_MS, Math.max(BUSY_WAIT_FLOOR_MS, asked));
  return Math.round(base * (1 + BUSY_JITTER * random));
}

/** Resolves after `ms`; rejects with an AbortError as soon as `signal` aborts. */
export function waitUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => new DOMException('The request was aborted.', 'AbortError');
    if (signal?.aborted) {
      reject(aborted());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
