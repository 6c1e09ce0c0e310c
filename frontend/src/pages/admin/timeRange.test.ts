import { describe, expect, it } from 'vitest';
import { localInputToIso } from './timeRange';

describe('localInputToIso', () => {
  it('reads the picked date and time as local time', () => {
    // The same wall-clock time built by Date: the test holds in any time zone.
    const local = new Date(2026, 10, 26, 6, 30);
    expect(localInputToIso('2026-11-26 06:30:00')).toBe(local.toISOString());
    expect(localInputToIso('2026-11-26T06:30')).toBe(local.toISOString());
  });

  it('gives nothing for an empty or impossible input', () => {
    expect(localInputToIso('')).toBeUndefined();
    expect(localInputToIso('2026-13-40 99:99:00')).toBeUndefined();
  });
});
