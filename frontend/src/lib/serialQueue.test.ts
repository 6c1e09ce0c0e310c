import { describe, expect, it } from 'vitest';
import { serialQueue } from './serialQueue';

/** A write that finishes when told to, recording when it started and ended. */
function controlledWrite(name: string, log: string[]) {
  let finish: (ok: boolean) => void = () => undefined;
  const write = () => {
    log.push(`start ${name}`);
    return new Promise<string>((resolve, reject) => {
      finish = (ok) => {
        log.push(`end ${name}`);
        if (ok) {
          resolve(name);
        } else {
          reject(new Error(name));
        }
      };
    });
  };
  return { write, finish: (ok = true) => finish(ok) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('serialQueue', () => {
  it('starts a write only when the one before has ended, in the order queued', async () => {
    const log: string[] = [];
    const enqueue = serialQueue();
    const first = controlledWrite('first', log);
    const second = controlledWrite('second', log);
    const results = [enqueue(first.write), enqueue(second.write)];
    // None in flight: the first starts at once, in the caller's turn.
    expect(log).toEqual(['start first']);
    await settle();
    expect(log).toEqual(['start first']);
    first.finish();
    await settle();
    expect(log).toEqual(['start first', 'end first', 'start second']);
    second.finish();
    await expect(Promise.all(results)).resolves.toEqual(['first', 'second']);
  });

  it('goes on after a failed write, which its caller hears of', async () => {
    const log: string[] = [];
    const enqueue = serialQueue();
    const failing = controlledWrite('failing', log);
    const next = controlledWrite('next', log);
    const failed = enqueue(failing.write);
    const succeeded = enqueue(next.write);
    await settle();
    failing.finish(false);
    await expect(failed).rejects.toThrow('failing');
    await settle();
    next.finish();
    await expect(succeeded).resolves.toBe('next');
    expect(log).toEqual(['start failing', 'end failing', 'start next', 'end next']);
    // All done: the next write starts at once again.
    await settle();
    const later = controlledWrite('later', log);
    void enqueue(later.write);
    expect(log.at(-1)).toBe('start later');
  });
});
