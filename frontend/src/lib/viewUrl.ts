import type { DateMode, Id, WorkflowShift } from '../api/types';
import { DATE_MODES } from '../api/types';
import { MAX_PERIOD_DAYS } from '../constants';
import { isIsoDate, rangeLengthDays } from './dateRange';
import { isRelativeRange, type RelativeRange } from './relativeRange';

/**
 * The view of an analysis page in the hash route's query, so a link shows a colleague the
 * same view: `#/productivity/analysis?range=yesterday&vehicles=3,5&shift=early&combined=true`
 * or, for a fixed period, `?mode=week&from=2026-11-16&to=2026-11-22&...`. `vehicles=all`
 * means every visible vehicle. Other parameters (`displayMode`) are kept as they are.
 */
export interface ViewState {
  relativeRange: RelativeRange | null;
  mode: DateMode;
  from: string;
  to: string;
  /** Empty: all machines. */
  vehicles: Id[];
  shift: WorkflowShift;
  combined: boolean;
}

/** What a URL says; parts it leaves out (or gets wrong) fall back to the saved settings. */
export type UrlView = Partial<ViewState>;

const VIEW_PARAMS = ['range', 'mode', 'from', 'to', 'vehicles', 'shift', 'combined'] as const;
const ALL = 'all';
const MAX_SHIFT_ID_LENGTH = 64;
const VEHICLE_ID = /^\d{1,9}$/;

export function hasViewParams(search: string): boolean {
  const params = new URLSearchParams(search);
  return VIEW_PARAMS.some((name) => params.has(name));
}

function decodeVehicles(value: string): Id[] | undefined {
  if (value === ALL) {
    return [];
  }
  const tokens = value.split(',').map((token) => token.trim());
  if (tokens.length === 0 || !tokens.every((token) => VEHICLE_ID.test(token))) {
    return undefined;
  }
  return [...new Set(tokens.map(Number))];
}

export function decodeView(search: string): UrlView {
  const params = new URLSearchParams(search);
  const view: UrlView = {};
  const range = params.get('range');
  const mode = params.get('mode');
  const from = params.get('from');
  const to = params.get('to');
  if (isRelativeRange(range)) {
    view.relativeRange = range;
  } else if (
    isIsoDate(from) &&
    isIsoDate(to) &&
    from <= to &&
    rangeLengthDays({ from, to }) <= MAX_PERIOD_DAYS
  ) {
    view.relativeRange = null;
    view.mode = DATE_MODES.includes(mode as DateMode) ? (mode as DateMode) : 'custom';
    view.from = from;
    view.to = to;
  }
  const vehicles = params.get('vehicles');
  if (vehicles !== null) {
    const ids = decodeVehicles(vehicles);
    if (ids) {
      view.vehicles = ids;
    }
  }
  const shift = params.get('shift');
  if (shift && shift.length <= MAX_SHIFT_ID_LENGTH) {
    view.shift = shift;
  }
  const combined = params.get('combined');
  if (combined === 'true' || combined === 'false') {
    view.combined = combined === 'true';
  }
  return view;
}

/**
 * The view parameters of `search` that are there but cannot be read (`decodeView` leaves
 * them to the saved settings): a link's user is told, rather than shown another view
 * silently. `mode` is not among them: a period without it is a custom one.
 */
export function unreadableViewParams(search: string): string[] {
  const params = new URLSearchParams(search);
  const view = decodeView(search);
  const period = ['range', 'from', 'to'].filter((name) => params.has(name));
  return [
    ...(view.relativeRange === undefined ? period : []),
    ...(params.has('vehicles') && view.vehicles === undefined ? ['vehicles'] : []),
    ...(params.has('shift') && view.shift === undefined ? ['shift'] : []),
    ...(params.has('combined') && view.combined === undefined ? ['combined'] : []),
  ];
}

/** `search` with the view's parameters set (others kept); '' or '?...'. */
export function encodeView(view: ViewState, search = ''): string {
  const params = new URLSearchParams(search);
  for (const name of VIEW_PARAMS) {
    params.delete(name);
  }
  if (view.relativeRange) {
    params.set('range', view.relativeRange);
  } else {
    params.set('mode', view.mode);
    params.set('from', view.from);
    params.set('to', view.to);
  }
  params.set('vehicles', view.vehicles.length === 0 ? ALL : view.vehicles.map(String).join(','));
  // A shift range names its shift itself.
  if (!view.relativeRange?.endsWith('Shift')) {
    params.set('shift', String(view.shift));
  }
  params.set('combined', String(view.combined));
  // Commas stay readable in a link.
  const query = params.toString().replaceAll('%2C', ',');
  return query ? `?${query}` : '';
}

/**
 * Whether the browser's address still shows `pathname` (hash routing: `#/path?query`). A
 * page writing its view into the address must not undo a navigation that happened
 * meanwhile (a link followed while its settings were read). No hash (the tests' memory
 * router): nothing else can have moved.
 */
export function addressShows(pathname: string, hash: string = window.location.hash): boolean {
  const shown = hash.replace(/^#/, '').split('?')[0];
  return !shown || shown === pathname;
}
