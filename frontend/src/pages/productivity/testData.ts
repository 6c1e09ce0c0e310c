import type {
  HistoryKpi,
  KpiGrid,
  Kpis,
  Productivity,
  ProductivityEntry,
  StateTimes,
} from '../../api/analytics';

/** Test helpers: build API shapes as the server sends them (used by the unit tests only). */
export function kpis(overrides: Partial<Kpis> = {}): Kpis {
  return {
    periodSeconds: 86400,
    noDataSeconds: 0,
    plannedSeconds: 86400,
    downtimeSeconds: 3600,
    availability: 0.958,
    utilization: 0.4,
    idleShare: 0.4,
    chargingShare: 0.15,
    throughputPerHour: 2.5,
    ordersFinished: 60,
    ordersFailed: 1,
    ordersCancelled: 0,
    orderSuccessRate: 0.98,
    loadsHandled: 120,
    distanceKm: 12.34,
    distancePerOrderKm: 0.21,
    cycleTimeP50Seconds: 240,
    mtbfSeconds: 20000,
    mttrSeconds: 300,
    stopErrors: 2,
    errors: 5,
    meanCharge: 62.5,
    minCharge: 21,
    ...overrides,
  };
}

const HISTORY_KPIS: readonly HistoryKpi[] = [
  'periodSeconds',
  'noDataSeconds',
  'plannedSeconds',
  'downtimeSeconds',
  'availability',
  'utilization',
  'idleShare',
  'chargingShare',
  'throughputPerHour',
  'ordersFinished',
  'ordersFailed',
  'ordersCancelled',
  'loadsHandled',
  'distanceKm',
];

/** The KPIs of each series' buckets (`rows[series][bucket]`) in the history's grid shape. */
export function kpiGrid(rows: Kpis[][]): KpiGrid {
  return Object.fromEntries(
    HISTORY_KPIS.map((field) => [field, rows.map((line) => line.map((bucket) => bucket[field]))]),
  ) as KpiGrid;
}

export function states(overrides: Partial<StateTimes> = {}): StateTimes {
  return {
    offline: 0,
    error: 1800,
    manual: 1800,
    charging: 12960,
    working: 34560,
    idle: 35280,
    ...overrides,
  };
}

export function entry(
  vehicleId: number | null,
  name: string | null,
  overrides: Partial<ProductivityEntry> = {},
): ProductivityEntry {
  return {
    vehicleId,
    name,
    states: states(),
    previousStates: states(),
    kpis: kpis(),
    previous: kpis({ availability: 0.9, ordersFinished: 50, idleShare: 0.45, distanceKm: 12.34 }),
    ...overrides,
  };
}

export function productivity(entries: ProductivityEntry[]): Productivity {
  const heatmap = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
  return {
    period: {
      from: '2026-11-19',
      to: '2026-11-21',
      previousFrom: '2026-11-16',
      previousTo: '2026-11-18',
      days: 3,
      shift: 'all',
      combined: entries.length === 1 && entries[0]?.vehicleId === null,
      vehicleIds: [1, 2],
    },
    entries,
    fleet: entry(null, null),
    heatmap,
  };
}
