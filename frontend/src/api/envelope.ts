/** The server envelope of product.md section 5 and its unwrapping (spec section 7). */
export interface Envelope {
  status: boolean;
  msg: string | null;
  data: unknown;
}

export function isEnvelope(value: unknown): value is Envelope {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    'status' in value &&
    typeof (value as { status: unknown }).status === 'boolean'
  );
}

function isSet(value: unknown): boolean {
  return value !== null && value !== undefined;
}

/**
 * Spec section 7, read literally: "When status and data are set, the body is replaced by
 * msg if present, otherwise kept. Otherwise, if data is an array, the result is an empty
 * list."
 *
 * Our reading, branch by branch:
 * 1. `status` is true and `data` is set (anything but null/undefined; `false`, `0`, `''`
 *    and `[]` are set values): the result is `msg` when `msg` is present (a non-empty
 *    string), otherwise the whole body (the envelope) is kept unchanged.
 * 2. Otherwise (status false, or data null/undefined), when `data` is an array: the result
 *    is an empty list.
 * 3. Anything else is not covered by the sentence and is passed through unchanged.
 * A body that is no envelope at all (e.g. a proxy's HTML page) is also passed through.
 *
 * Consequence for the server: successful calls carry `msg: null`, so callers read `data`
 * from the kept envelope (see `dataOf`).
 */
export function unwrapEnvelope(body: unknown): unknown {
  if (!isEnvelope(body)) {
    return body;
  }
  if (body.status && isSet(body.data)) {
    return typeof body.msg === 'string' && body.msg !== '' ? body.msg : body;
  }
  if (Array.isArray(body.data)) {
    return [];
  }
  return body;
}

/** The payload a caller works with: `data` of a kept envelope, else the unwrapped body. */
export function dataOf<T>(unwrapped: unknown): T {
  return (isEnvelope(unwrapped) ? unwrapped.data : unwrapped) as T;
}

/** The server's message of an unwrapped failure body, if any. */
export function messageOf(unwrapped: unknown): string | null {
  if (isEnvelope(unwrapped)) {
    return unwrapped.msg;
  }
  return typeof unwrapped === 'string' ? unwrapped : null;
}

/** What a transport failure (fetch itself throws) yields: an empty failed body. */
export function emptyFailedBody(): Envelope {
  return { status: false, msg: null, data: null };
}
