import { APPLICATION_NAME } from '../constants';

/** Error types of the catalogue (spec section 8) plus render failures of the app itself. */
export type ErrorType = 'NETWORK' | 'NO_INTERNET' | 'CHUNK' | 'UNKNOWN';

/** The error object of spec section 3. */
export interface AppError {
  application: typeof APPLICATION_NAME;
  type: ErrorType;
  url: string | null;
  user: string | null;
  message: string | null;
  body: string | null;
}

export function makeError({
  type,
  url = null,
  user = null,
  message = null,
  body = null,
}: {
  type: ErrorType;
  url?: string | null;
  user?: string | null;
  message?: string | null;
  body?: string | null;
}): AppError {
  return { application: APPLICATION_NAME, type, url, user, message, body };
}

/** i18n key of the overlay header: the lowercased type plus '.header' (spec section 8). */
export function errorHeaderKey(type: ErrorType): string {
  return `${type.toLowerCase()}.header`;
}

/**
 * Chunk failures as browsers and bundlers word them. Vite reports a failed lazy page as
 * "Failed to fetch dynamically imported module", which is the chunk of that page.
 */
const CHUNK_FAILURE =
  /chunk|dynamically imported module|importing a module script failed|error loading dynamically/i;

function messageOfUnknown(error: unknown): string {
  if (error instanceof Error) {
    return `${error.name}: ${error.message}`;
  }
  return typeof error === 'string' ? error : '';
}

/**
 * Classifies a failed navigation (a route or lazy module that did not load):
 * offline -> no-internet error; a chunk failure while online -> chunk error; else null
 * (the route's own error view handles it).
 */
export function classifyNavigationFailure({
  error,
  online,
  url,
  user,
}: {
  error: unknown;
  online: boolean;
  url: string;
  user: string | null;
}): AppError | null {
  const message = messageOfUnknown(error);
  if (!online) {
    return makeError({ type: 'NO_INTERNET', url, user, message });
  }
  if (CHUNK_FAILURE.test(message)) {
    return makeError({ type: 'CHUNK', url, user, message });
  }
  return null;
}
