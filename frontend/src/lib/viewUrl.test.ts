import { describe, expect, it } from 'vitest';
import {
  addressShows,
  decodeView,
  encodeView,
  hasViewParams,
  unreadableViewParams,
  type ViewState,
} from './viewUrl';

const FIXED: ViewState = {
  relativeRange: null,
  mode: 'week',
  from: '2026-11-16',
  to: '2026-11-22',
  vehicles: [3, 5],
  shift: 'early',
  combined: true,
};

describe('view in the URL', () => {
  it('round-trips a fixed period with vehicles, shift and combined', () => {
    const search = encodeView(FIXED);
    expect(search).toBe(
      '?mode=week&from=2026-11-16&to=2026-11-22&vehicles=3,5&shift=early&combined=true',
    );
    expect(decodeView(search)).toEqual(FIXED);
  });

  it('round-trips a relative range and "all machines", keeping other parameters', () => {
    const view: ViewState = { ...FIXED, relativeRange: 'yesterday', vehicles: [], combined: false };
    const search = encodeView(view, '?displayMode=true&mode=day');
    const params = new URLSearchParams(search);
    expect(params.get('displayMode')).toBe('true');
    expect(params.get('range')).toBe('yesterday');
    expect(params.has('from')).toBe(false);
    expect(decodeView(search)).toEqual({
      relativeRange: 'yesterday',
      vehicles: [],
      shift: 'early',
      combined: false,
    });
  });

  it('leaves the shift out of a shift range: the range names it', () => {
    const search = encodeView({ ...FIXED, relativeRange: 'currentShift' });
    expect(new URLSearchParams(search).has('shift')).toBe(false);
  });

  it('ignores what it cannot read, so the saved settings stand in', () => {
    expect(
      decodeView('?range=nextWeek&from=2026-11-22&to=2026-11-16&vehicles=3,x&combined=yes'),
    ).toEqual({});
    expect(decodeView('?from=2026-11-16&to=2026-11-18')).toEqual({
      relativeRange: null,
      mode: 'custom',
      from: '2026-11-16',
      to: '2026-11-18',
    });
    // A day the month does not have is no period: the saved one stands in, not a 422.
    expect(decodeView('?mode=day&from=2026-02-30&to=2026-02-30')).toEqual({});
    expect(
      unreadableViewParams(
        '?range=nextWeek&from=2026-11-22&to=2026-11-16&vehicles=3,x&combined=yes',
      ),
    ).toEqual(['range', 'from', 'to', 'vehicles', 'combined']);
    expect(unreadableViewParams('?range=today&from=2026-11-22&shift=&combined=true')).toEqual([
      'shift',
    ]);
    expect(unreadableViewParams('?mode=week&from=2026-11-16&to=2026-11-22&vehicles=all')).toEqual(
      [],
    );
    // Longer than the 400 days the analytics answer: not a period either (the notice names it).
    expect(decodeView('?mode=custom&from=2025-10-26&to=2026-11-29').to).toBe('2026-11-29');
    expect(decodeView('?mode=custom&from=2025-10-25&to=2026-11-29')).toEqual({});
    expect(unreadableViewParams('?mode=custom&from=2000-01-01&to=2026-11-29')).toEqual([
      'from',
      'to',
    ]);
    expect(hasViewParams('?displayMode=true')).toBe(false);
    expect(hasViewParams('?displayMode=true&range=today')).toBe(true);
  });
});

describe('addressShows', () => {
  it("is false once the address moved on: a page must not write its view over another's", () => {
    const dashboard = '/dashboards/dashboard';
    expect(addressShows(dashboard, '#/dashboards/dashboard?mode=week')).toBe(true);
    expect(addressShows(dashboard, '#/dashboards/dashboard')).toBe(true);
    // Followed a link while the dashboard read its settings.
    expect(addressShows(dashboard, '#/productivity')).toBe(false);
    // No hash at all (a memory router): nothing else can have moved.
    expect(addressShows(dashboard, '')).toBe(true);
  });
});
