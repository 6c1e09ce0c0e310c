import i18next, { type TFunction } from 'i18next';
import {
  AUTHENTICATION_FAILED_MESSAGE,
  CSRF_COOKIE,
  CSRF_HEADER,
  EXCLUDED_ROUTE_PATTERNS,
} from '../constants';
import { normalizeLanguage } from '../i18n';
import { busyRetryDelayMs, waitUnlessAborted } from './busyRetry';
import { cacheKey } from './cacheKey';
import { readCookie } from './cookies';
import {
  dataOf,
  type Envelope,
  emptyFailedBody,
  isEnvelope,
  messageOf,
  unwrapEnvelope,
} from './envelope';
import { type AppError, makeError } from './errors';
import { ResponseCache } from './responseCache';

/**
 * The one request chain every server call goes through (spec sections 7 to 9):
 * response cache, a short wait and retry when the server is busy (503 with Retry-After,
 * see busyRetry.ts), envelope unwrapping and the error catalogue.
 */

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  body?: unknown;
  /** A refresh request: clears the whole response cache before asking the server. */
  refresh?: boolean;
  /**
   * POST reads (queries with a body) opt into the cache; GET is cached by default and may
   * opt out (`cache: false`: a job's progress, administration lists read after a change).
   */
  cache?: boolean;
  signal?: AbortSignal;
}

export interface ApiResult {
  ok: boolean;
  httpStatus: number;
  /** The body after envelope unwrapping (spec section 7). */
  body: unknown;
}

export interface RequestChainHooks {
  /** Who is logged in, for error reports (email), or null. */
  currentUser: () => string | null;
  reportError: (error: AppError) => void;
  /** Server said "authentication failed" on a non-excluded route (cache already cleared). */
  onAuthenticationFailed: () => void;
  isOnline: () => boolean;
  fetch: typeof fetch;
  /** Waits before a busy answer is tried again; rejects with an AbortError on abort. */
  wait: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
}

const defaultHooks: RequestChainHooks = {
  currentUser: () => null,
  reportError: () => undefined,
  onAuthenticationFailed: () => undefined,
  isOnline: () => navigator.onLine,
  fetch: (...args) => globalThis.fetch(...args),
  wait: waitUnlessAborted,
  random: () => Math.random(),
};

let hooks: RequestChainHooks = defaultHooks;
const cache = new ResponseCache<ApiResult>();

export function configureRequestChain(overrides: Partial<RequestChainHooks>): void {
  hooks = { ...defaultHooks, ...overrides };
}

export function clearResponseCache(): void {
  cache.clear();
}

export function responseCacheSize(): number {
  return cache.size;
}

export function isExcludedRoute(url: string): boolean {
  return EXCLUDED_ROUTE_PATTERNS.some((pattern) => pattern.test(url));
}

/**
 * The session rule of spec section 4: an 'authentication failed' message ends the session
 * (the cache is cleared). The chain applies it on every non-excluded route; the callers of
 * excluded routes that run inside a session (the password dialog, the Administration app)
 * apply it themselves with the message of their failed answer. True if it applied.
 */
export function followSessionRule(message: string | null | undefined): boolean {
  if (message?.trim().toLowerCase() !== AUTHENTICATION_FAILED_MESSAGE) {
    return false;
  }
  cache.clear();
  hooks.onAuthenticationFailed();
  return true;
}

const WRITE_METHODS: ReadonlySet<HttpMethod> = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

function serializeBody(body: unknown): string | null {
  return body === undefined ? null : JSON.stringify(body);
}

/** The language the user reads now: the server writes its messages (`msg`) in it. */
function requestLanguage(): string {
  return normalizeLanguage(i18next.language);
}

function buildInit(method: HttpMethod, options: RequestOptions): RequestInit {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': requestLanguage(),
  };
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  if (WRITE_METHODS.has(method)) {
    const token = readCookie(CSRF_COOKIE);
    if (token) {
      headers[CSRF_HEADER] = token;
    }
  }
  const init: RequestInit = { method, headers, credentials: 'same-origin' };
  const serialized = serializeBody(options.body);
  if (serialized !== null) {
    init.body = serialized;
  }
  if (options.signal) {
    init.signal = options.signal;
  }
  return init;
}

/** The message of a response that is no envelope (a proxy's 502 page, say). */
const statusMessage = (status: number) => `HTTP ${status}`;

/** Reads the response as an envelope; a body that is no envelope becomes one by HTTP status. */
async function readEnvelope(response: Response): Promise<Envelope> {
  let parsed: unknown = null;
  try {
    parsed = await response.json();
  } catch {
    parsed = null;
  }
  if (isEnvelope(parsed)) {
    return parsed;
  }
  return {
    status: response.ok,
    msg: response.ok ? null : statusMessage(response.status),
    data: parsed,
  };
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** fetch, made again after the wait a busy server asks for (503 with Retry-After). */
async function fetchUnlessBusy(url: string, init: RequestInit): Promise<Response> {
  for (let retriesDone = 0; ; retriesDone += 1) {
    const response = await hooks.fetch(url, init);
    const delay = busyRetryDelayMs({
      status: response.status,
      retryAfter: response.headers.get('Retry-After'),
      retriesDone,
      now: Date.now(),
      random: hooks.random(),
    });
    if (delay === null) {
      return response;
    }
    // Its body is not read: release the connection.
    void response.body?.cancel().catch(() => undefined);
    await hooks.wait(delay, init.signal ?? undefined);
  }
}

export async function request(url: string, options: RequestOptions = {}): Promise<ApiResult> {
  const method = options.method ?? 'GET';
  const excluded = isExcludedRoute(url);
  if (options.refresh) {
    cache.clear();
  }
  const cacheable = !excluded && (options.cache ?? method === 'GET');
  const key = cacheKey(url, options.body);
  if (cacheable) {
    const hit = cache.get(key);
    if (hit) {
      return hit;
    }
  }

  let response: Response;
  try {
    response = await fetchUnlessBusy(url, buildInit(method, options));
  } catch (error) {
    if (isAbort(error)) {
      throw error;
    }
    if (!excluded && !hooks.isOnline()) {
      hooks.reportError(
        makeError({
          type: 'NO_INTERNET',
          url,
          user: hooks.currentUser(),
          body: serializeBody(options.body),
        }),
      );
    }
    return { ok: false, httpStatus: 0, body: emptyFailedBody() };
  }

  const envelope = await readEnvelope(response);
  const result: ApiResult = {
    ok: response.ok && envelope.status,
    httpStatus: response.status,
    body: unwrapEnvelope(envelope),
  };
  if (excluded) {
    return result;
  }
  if (followSessionRule(envelope.msg)) {
    return result;
  }
  if (!envelope.status) {
    hooks.reportError(
      makeError({
        type: 'NETWORK',
        url,
        user: hooks.currentUser(),
        message: envelope.msg,
        body: serializeBody(options.body),
      }),
    );
    return result;
  }
  if (result.ok && cacheable) {
    cache.set(key, result);
  }
  if (result.ok && WRITE_METHODS.has(method) && !cacheable) {
    // What was cached for this url is stale after a successful write to it.
    cache.deleteUrl(url);
  }
  return result;
}

/** A failed call as seen by TanStack Query and components. */
export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly httpStatus: number,
    readonly body: unknown,
    /** The server's own message (in the request's language); null for a transport failure. */
    readonly serverMessage: string | null = null,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

/**
 * What to tell the user about a failed call, in their language: the server's message (it
 * names the field or the conflict), else what went wrong on the way ("no connection",
 * "HTTP 502"), else the general "could not be loaded".
 */
export function failureText(error: unknown, t: TFunction): string {
  if (!(error instanceof ApiFailure)) {
    return t('state.loadFailedBody');
  }
  if (error.serverMessage !== null) {
    return error.serverMessage;
  }
  return error.httpStatus === 0
    ? t('state.networkUnreachable')
    : t('state.httpStatus', { status: error.httpStatus });
}

/** Request plus payload extraction; throws ApiFailure on failure. */
export async function callApi<T>(url: string, options: RequestOptions = {}): Promise<T> {
  const result = await request(url, options);
  if (!result.ok) {
    const said = messageOf(result.body);
    const serverMessage = said === statusMessage(result.httpStatus) ? null : said;
    const message =
      serverMessage ??
      (result.httpStatus === 0 ? 'network unreachable' : statusMessage(result.httpStatus));
    throw new ApiFailure(message, result.httpStatus, result.body, serverMessage);
  }
  return dataOf<T>(result.body);
}
