import type {
  AppSettings,
  DateMode,
  DateSelectorSettings,
  Id,
  Site,
  Vehicle,
  WorkflowShift,
} from '../api/types';
import { DATE_MODES } from '../api/types';
import { isIsoDate, rangeFor, todayIso } from './dateRange';
import { isRelativeRange } from './relativeRange';

/** Pure rules of the analysis filters (date selector, machines, combined, shift). */

export interface SelectGroup {
  group: string;
  items: Array<{ value: string; label: string }>;
}

export function defaultDateSelector(today: string = todayIso()): DateSelectorSettings {
  return { mode: 'week', ...rangeFor('week', today), combined: false, workflowShift: 'all' };
}

/** Saved settings as received, made safe: unknown or missing parts fall back to defaults. */
export function normalizeSettings(
  raw: Partial<AppSettings> | null | undefined,
  today: string = todayIso(),
): AppSettings {
  const fallback = defaultDateSelector(today);
  const saved: Partial<DateSelectorSettings> = raw?.dateSelector ?? {};
  const mode: DateMode = DATE_MODES.includes(saved.mode as DateMode)
    ? (saved.mode as DateMode)
    : fallback.mode;
  const validRange = isIsoDate(saved.from) && isIsoDate(saved.to) && saved.from <= saved.to;
  return {
    dateSelector: {
      mode,
      from: validRange ? (saved.from as string) : fallback.from,
      to: validRange ? (saved.to as string) : fallback.to,
      combined: typeof saved.combined === 'boolean' ? saved.combined : false,
      workflowShift: saved.workflowShift ?? 'all',
      // Present only while one is saved, as the server sends it.
      ...(isRelativeRange(saved.relativeRange) ? { relativeRange: saved.relativeRange } : {}),
    },
    selectedMachines: Array.isArray(raw?.selectedMachines) ? raw.selectedMachines : [],
    onboardingWatched: raw?.onboardingWatched === true,
  };
}

/**
 * Vehicles grouped by site (sites and vehicles sorted by name) for the machine selector; the
 * retired ones last, in a group of their own (`retiredGroup`), each with its site.
 */
export function vehicleGroups(vehicles: readonly Vehicle[], retiredGroup: string): SelectGroup[] {
  const bySite = new Map<string, SelectGroup>();
  const retired: SelectGroup = { group: retiredGroup, items: [] };
  for (const vehicle of vehicles) {
    if (vehicle.retiredAt) {
      retired.items.push({
        value: String(vehicle.id),
        label: `${vehicle.name} (${vehicle.siteName})`,
      });
      continue;
    }
    const group = bySite.get(String(vehicle.siteId)) ?? { group: vehicle.siteName, items: [] };
    group.items.push({ value: String(vehicle.id), label: vehicle.name });
    bySite.set(String(vehicle.siteId), group);
  }
  const groups = [...bySite.values()].sort((a, b) => a.group.localeCompare(b.group));
  for (const group of [...groups, retired]) {
    group.items.sort((a, b) => a.label.localeCompare(b.label, undefined, { numeric: true }));
  }
  return retired.items.length > 0 ? [...groups, retired] : groups;
}

/** The selected machines the user can still see; none selected means all visible ones. */
export function effectiveVehicles(
  selected: readonly Id[],
  vehicles: readonly Vehicle[],
): Vehicle[] {
  const wanted = new Set(selected.map(String));
  const chosen = vehicles.filter((vehicle) => wanted.has(String(vehicle.id)));
  return chosen.length > 0 ? chosen : [...vehicles];
}

/**
 * The vehicles of a shared link that the user can see, and how many it names that they
 * cannot (another tenant's, or gone since): those are left out of the view, and the user is
 * told, rather than the page quietly showing something else than the link's address says.
 */
export function linkVehicles(
  ids: readonly Id[],
  vehicles: readonly Vehicle[],
): { visible: Id[]; hidden: number } {
  const known = new Set(vehicles.map((vehicle) => String(vehicle.id)));
  const visible = ids.filter((id) => known.has(String(id)));
  return { visible, hidden: ids.length - visible.length };
}

/** Selector values are strings; map them back to the ids the server uses. */
export function idsFromValues(values: readonly string[], vehicles: readonly Vehicle[]): Id[] {
  const byValue = new Map(vehicles.map((vehicle) => [String(vehicle.id), vehicle.id]));
  return values.flatMap((value) => {
    const id = byValue.get(value);
    return id === undefined ? [] : [id];
  });
}

/** Sites of the machines in scope: their shifts are the ones that can be chosen. */
export function sitesInScope(sites: readonly Site[], vehicles: readonly Vehicle[]): Site[] {
  const siteIds = new Set(vehicles.map((vehicle) => String(vehicle.siteId)));
  return sites.filter((site) => siteIds.has(String(site.id)));
}

export const ALL_SHIFTS_VALUE = 'all';

/**
 * A shift id means the same shift at every site that has it (sites share the default
 * early/late/night ids), so each id is offered once; where sites give it different
 * hours, the label names each site's hours.
 */
export function shiftGroups(sites: readonly Site[], allShiftsLabel: string): SelectGroup[] {
  const hoursById = new Map<string, { name: string; hours: Map<string, string[]> }>();
  for (const site of [...sites].sort((a, b) => a.name.localeCompare(b.name))) {
    for (const shift of site.shifts) {
      const id = String(shift.id);
      const entry = hoursById.get(id) ?? { name: shift.name, hours: new Map<string, string[]>() };
      const hours = `${shift.start}–${shift.end}`;
      entry.hours.set(hours, [...(entry.hours.get(hours) ?? []), site.name]);
      hoursById.set(id, entry);
    }
  }
  const items = [{ value: ALL_SHIFTS_VALUE, label: allShiftsLabel }];
  for (const [id, { name, hours }] of hoursById) {
    const parts = [...hours].map(([range, siteNames]) =>
      hours.size === 1 ? range : `${range} ${siteNames.join(', ')}`,
    );
    items.push({ value: id, label: `${name} (${parts.join('; ')})` });
  }
  return [{ group: '', items }];
}

export function shiftFromValue(value: string | null, sites: readonly Site[]): WorkflowShift {
  if (!value || value === ALL_SHIFTS_VALUE) {
    return 'all';
  }
  for (const site of sites) {
    const shift = site.shifts.find((candidate) => String(candidate.id) === value);
    if (shift) {
      return shift.id;
    }
  }
  return 'all';
}

/** A saved shift that belongs to none of the sites in scope falls back to all shifts. */
export function validShift(shift: WorkflowShift, sites: readonly Site[]): WorkflowShift {
  if (shift === 'all') {
    return 'all';
  }
  return sites.some((site) =>
    site.shifts.some((candidate) => String(candidate.id) === String(shift)),
  )
    ? shift
    : 'all';
}

export function shiftName(shift: WorkflowShift, sites: readonly Site[]): string | null {
  for (const site of sites) {
    const found = site.shifts.find((candidate) => String(candidate.id) === String(shift));
    if (found) {
      return found.name;
    }
  }
  return null;
}
