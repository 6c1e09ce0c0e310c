import { describe, expect, it } from 'vitest';
import type { Site, Vehicle } from '../api/types';
import {
  effectiveVehicles,
  idsFromValues,
  linkVehicles,
  normalizeSettings,
  shiftFromValue,
  shiftGroups,
  sitesInScope,
  validShift,
  vehicleGroups,
} from './filters';

function vehicle(id: number, name: string, siteId: number, siteName: string): Vehicle {
  return {
    id,
    name,
    manufacturer: 'Acme',
    serialNumber: `SN${id}`,
    model: null,
    siteId,
    siteName,
    organizationId: 1,
    organizationName: 'Org',
    protocolVersion: '2.0.0',
    batteryCapacityWh: null,
    retiredAt: null,
  };
}

const vehicles = [
  vehicle(3, 'AGV 10', 2, 'Werk B'),
  vehicle(1, 'AGV 2', 1, 'Werk A'),
  vehicle(2, 'AGV 1', 1, 'Werk A'),
];
const sites: Site[] = [
  {
    id: 1,
    name: 'Werk A',
    timeZone: 'Europe/Berlin',
    organizationId: 1,
    organizationName: 'Org',
    shifts: [{ id: 11, name: 'Early', start: '06:00', end: '14:00', weekdays: [1, 2, 3, 4, 5] }],
  },
  {
    id: 2,
    name: 'Werk B',
    timeZone: 'Europe/Berlin',
    organizationId: 1,
    organizationName: 'Org',
    shifts: [],
  },
  {
    id: 3,
    name: 'Werk C',
    timeZone: 'UTC',
    organizationId: 1,
    organizationName: 'Org',
    shifts: [],
  },
];

describe('normalizeSettings', () => {
  it('keeps valid saved settings', () => {
    const saved = {
      dateSelector: {
        mode: 'month' as const,
        from: '2026-01-01',
        to: '2026-01-31',
        combined: true,
        workflowShift: 11,
      },
      selectedMachines: [1],
      onboardingWatched: true,
    };
    expect(normalizeSettings(saved, '2026-03-04')).toEqual(saved);
  });

  it('falls back to the current week, all shifts, not combined, onboarding not watched', () => {
    expect(normalizeSettings(null, '2026-03-04')).toEqual({
      dateSelector: {
        mode: 'week',
        from: '2026-03-02',
        to: '2026-03-08',
        combined: false,
        workflowShift: 'all',
      },
      selectedMachines: [],
      onboardingWatched: false,
    });
    const reversed = normalizeSettings(
      {
        dateSelector: {
          mode: 'day',
          from: '2026-03-05',
          to: '2026-03-01',
          combined: false,
          workflowShift: 'all',
        },
      },
      '2026-03-04',
    );
    expect(reversed.dateSelector).toMatchObject({
      mode: 'day',
      from: '2026-03-02',
      to: '2026-03-08',
    });
  });
});

describe('machines', () => {
  it('groups vehicles by site, sorted naturally', () => {
    expect(vehicleGroups(vehicles, 'Retired')).toEqual([
      {
        group: 'Werk A',
        items: [
          { value: '2', label: 'AGV 1' },
          { value: '1', label: 'AGV 2' },
        ],
      },
      { group: 'Werk B', items: [{ value: '3', label: 'AGV 10' }] },
    ]);
  });

  it('lists retired vehicles last, in a group of their own naming their sites', () => {
    const fleet = [
      ...vehicles,
      { ...vehicle(4, 'AGV 9', 2, 'Werk B'), retiredAt: '2026-11-01T08:00:00Z' },
      { ...vehicle(5, 'AGV 3', 1, 'Werk A'), retiredAt: '2026-10-01T08:00:00Z' },
    ];
    expect(vehicleGroups(fleet, 'Retired').map((group) => group.group)).toEqual([
      'Werk A',
      'Werk B',
      'Retired',
    ]);
    expect(vehicleGroups(fleet, 'Retired').at(-1)?.items).toEqual([
      { value: '5', label: 'AGV 3 (Werk A)' },
      { value: '4', label: 'AGV 9 (Werk B)' },
    ]);
    expect(vehicleGroups(fleet, 'Retired')[1]?.items).toEqual([{ value: '3', label: 'AGV 10' }]);
  });

  it('no selection or only unknown ids means all visible vehicles', () => {
    expect(effectiveVehicles([], vehicles)).toHaveLength(3);
    expect(effectiveVehicles([99], vehicles)).toHaveLength(3);
    expect(effectiveVehicles([1, 99], vehicles).map((v) => v.id)).toEqual([1]);
  });

  it("splits a link's vehicles into the visible ones and a count of the others", () => {
    expect(linkVehicles([3, 99, 1, 98], vehicles)).toEqual({ visible: [3, 1], hidden: 2 });
    expect(linkVehicles([99], vehicles)).toEqual({ visible: [], hidden: 1 });
    expect(linkVehicles([], vehicles)).toEqual({ visible: [], hidden: 0 });
  });

  it('maps selector values back to ids and drops unknown ones', () => {
    expect(idsFromValues(['1', '3', 'x'], vehicles)).toEqual([1, 3]);
  });
});

describe('shifts', () => {
  it('offers all shifts plus the shifts of the sites in scope', () => {
    const scope = sitesInScope(sites, vehicles);
    expect(scope.map((site) => site.name)).toEqual(['Werk A', 'Werk B']);
    expect(shiftGroups(scope, 'All shifts')).toEqual([
      {
        group: '',
        items: [
          { value: 'all', label: 'All shifts' },
          { value: '11', label: 'Early (06:00–14:00)' },
        ],
      },
    ]);
  });

  it('offers a shift id that several sites share once, naming differing hours', () => {
    const shift = (start: string, end: string) => ({
      id: 'early',
      name: 'Early',
      start,
      end,
      weekdays: [0],
    });
    const twoSites = [
      { ...(sites[0] as Site), id: 1, name: 'Hamburg', shifts: [shift('06:00', '14:00')] },
      { ...(sites[0] as Site), id: 2, name: 'Munich', shifts: [shift('06:00', '14:00')] },
      { ...(sites[0] as Site), id: 3, name: 'Bremen', shifts: [shift('07:00', '15:00')] },
    ];
    const [group] = shiftGroups(twoSites.slice(0, 2), 'All shifts');
    expect(group?.items).toEqual([
      { value: 'all', label: 'All shifts' },
      { value: 'early', label: 'Early (06:00–14:00)' },
    ]);
    const [mixed] = shiftGroups(twoSites, 'All shifts');
    expect(mixed?.items[1]?.label).toBe('Early (07:00–15:00 Bremen; 06:00–14:00 Hamburg, Munich)');
  });

  it('maps values back and drops shifts of sites out of scope', () => {
    expect(shiftFromValue('11', sites)).toBe(11);
    expect(shiftFromValue('all', sites)).toBe('all');
    expect(shiftFromValue('77', sites)).toBe('all');
    expect(validShift(11, sites)).toBe(11);
    expect(validShift(11, [sites[1] as Site])).toBe('all');
  });
});

describe('a saved relative range', () => {
  it('is kept by name; an unknown name is dropped', () => {
    const dateSelector = {
      mode: 'day' as const,
      from: '2026-11-24',
      to: '2026-11-24',
      combined: false,
      workflowShift: 'all' as const,
    };
    expect(
      normalizeSettings({ dateSelector: { ...dateSelector, relativeRange: 'yesterday' } })
        .dateSelector.relativeRange,
    ).toBe('yesterday');
    const unknown = {
      ...dateSelector,
      relativeRange: 'nextWeek',
    } as unknown as typeof dateSelector;
    expect(normalizeSettings({ dateSelector: unknown }).dateSelector.relativeRange).toBeUndefined();
  });
});
