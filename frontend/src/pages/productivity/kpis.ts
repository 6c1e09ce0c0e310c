import type { HistoryKpi } from '../../api/analytics';
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
  /** The field of the API's KPIs this one shows. */
  field: HistoryKpi;
}

export const PRODUCTIVITY_KPIS: readonly ProductivityKpi[] = [
  { key: 'availability', unit: 'share', higherIsBetter: true, field: 'availability' },
  { key: 'utilization', unit: 'share', higherIsBetter: true, field: 'utilization' },
  // Idle is capacity left unused and charging time is unavailable time: lower is better.
  { key: 'idleShare', unit: 'share', higherIsBetter: false, field: 'idleShare' },
  { key: 'chargingShare', unit: 'share', higherIsBetter: false, field: 'chargingShare' },
  { key: 'throughput', unit: 'perHour', higherIsBetter: true, field: 'throughputPerHour' },
  { key: 'orders', unit: 'count', higherIsBetter: true, field: 'ordersFinished' },
  { key: 'loads', unit: 'count', higherIsBetter: true, field: 'loadsHandled' },
  // More kilometres is neither good nor bad by itself (distance per order tells that).
  { key: 'distance', unit: 'km', higherIsBetter: null, field: 'distanceKm' },
];

export type ProductivityKpiKey = ProductivityKpi['key'];

export function productivityKpi(key: ProductivityKpiKey): ProductivityKpi {
  const kpi = PRODUCTIVITY_KPIS.find((candidate) => candidate.key === key);
  if (!kpi) {
    throw new Error(`unknown productivity KPI ${key}`);
  }
  return kpi;
}
