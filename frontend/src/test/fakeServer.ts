import { vi } from 'vitest';

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export function ok(data: unknown, msg: string | null = null) {
  return { status: true, msg, data };
}

export function failed(msg: string, data: unknown = null) {
  return { status: false, msg, data };
}

/** A fetch mock answering each call with the next factory result (fresh Response each time). */
export function fakeFetch(...answers: Array<() => Response | Promise<Response>>) {
  const queue = [...answers];
  return vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => {
    const next = queue.shift();
    if (!next) {
      throw new Error('unexpected request');
    }
    return next();
  });
}
