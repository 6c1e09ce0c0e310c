/**
 * Runs asynchronous writes one after the other, in the order they were queued: two requests
 * in flight may be handled by the server in either order, and the later change must win.
 * With none in flight a write starts at once (in the caller's event, before anything else
 * it triggers). A failed write does not stop the ones after it (its caller hears of it).
 */
export function serialQueue(): <T>(write: () => Promise<T>) => Promise<T> {
  let tail: Promise<void> | null = null;
  return <T>(write: () => Promise<T>) => {
    const next = tail ? tail.then(write, write) : write();
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    tail = settled;
    void settled.then(() => {
      if (tail === settled) {
        tail = null;
      }
    });
    return next;
  };
}
