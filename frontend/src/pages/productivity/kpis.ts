import type { Kpis } from '../../api/analytics';
import type { KpiUnit } from '../../components/charts';

/** The productivity KPIs of the tiles and the history, in display order. */
export interface ProductivityKpi {
  key:
    | 'availability'
    | 'utilization'
    | 'idleShare'
    | 'chargingShare'
    | 'throughput'
    | 'orders'
    | 'loads'
    | 'distance';
  unit: KpiUnit;
  /** null: neither direction is better (distance). */
  higherIsBetter: boolean | null;
  pick: (kpis: Kpis) => number | null;
}

export const PRODUCTIVITY_KPIS: readonly ProductivityKpi[] = [
  { key: 'availability', unit: 'share', higherIsBetter: true, pick: (k) => k.availability },
  { key: 'utilization', unit: 'share', higherIsBetter: true, pick: (k) => k.utilization },
  // Idle is capacity left unused and charging time is unavailable time: lower is better.
  { key: 'idleShare', unit: 'share', higherIsBetter: false, pick: (k) => k.idleShare },
  { key: 'chargingShare', unit: 'share', higherIsBetter: false, pick: (k) => k.chargingShare },
  { key: 'throughput', unit: 'perHour', higherIsBetter: true, pick: (k) => k.throughputPerHour },
  { key: 'orders', unit: 'count', higherIsBetter: true, pick: (k) => k.ordersFinished },
  { key: 'loads', unit: 'count', higherIsBetter: true, pick: (k) => k.loadsHandled },
  // More kilometres is neither good nor bad by itself (distance per order tells that).
  { key: 'distance', unit: 'km', higherIsBetter: null, pick: (k) => k.distanceKm },
];

export type ProductivityKpiKey = ProductivityKpi['key'];

export function productivityKpi(key: ProductivityKpiKey): ProductivityKpi {
  const kpi = PRODUCTIVITY_KPIS.find((candidate) => candidate.key === key);
  if (!kpi) {
    throw new Error(`unknown productivity KPI ${key}`);
  }
  return kpi;
}
