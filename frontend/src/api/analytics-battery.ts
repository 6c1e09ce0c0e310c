import { type AnalysisScope, type AnalyticsPeriod, analyticsQuery } from './analytics-processes';
import { callApi } from './client';

/** Battery analytics (`/v2/Analytics/Battery`). Charges are percentages (0..100). */

/** [at (UTC, epoch milliseconds), charge in percent]: the pair a chart line draws. */
export type ChargePoint = [at: number, charge: number];

export interface ChargeSeries {
  vehicleId: number;
  name: string;
  /** Downsampled to what a chart can show, within the period only. */
  points: ChargePoint[];
}

/** [at (UTC, epoch milliseconds), state of health (SoH) in percent]. */
export type HealthPoint = [at: number, health: number];

export interface HealthSeries {
  vehicleId: number;
  name: string;
  /** Mean SoH per time slot of the charge series (at the slot's middle), ascending; empty if the vehicle reports none. */
  points: HealthPoint[];
  /** The least-squares line (slope = healthSlopePer30Days) at the first and last point; empty below two points. */
  trend: HealthPoint[];
}

export interface SessionFigures {
  count: number;
  meanDurationSeconds: number | null;
  /** Percentage points per session. */
  meanAddedCharge: number | null;
  addedCharge: number;
  discharged: number;
  equivalentFullCycles: number;
  meanDepthOfDischarge: number | null;
  /** Cycles per 10-point bin: 0-10, ..., 90-100. */
  depthHistogram: number[];
  /** null unless the capacity is known. */
  addedEnergyWh: number | null;
  dischargedEnergyWh: number | null;
}

export interface BatteryFigures {
  sessions: SessionFigures;
  meanCharge: number | null;
  minCharge: number | null;
  belowLowSeconds: number;
  /** Charging time / planned time, 0..1. */
  chargingShare: number | null;
  healthLatest: number | null;
  healthSlopePer30Days: number | null;
}

export interface BatteryEntry {
  vehicleId: number | null;
  name: string | null;
  batteryCapacityWh: number | null;
  current: BatteryFigures;
  previous: BatteryFigures;
}

export interface BatteryResult {
  period: AnalyticsPeriod;
  lowChargeThreshold: number;
  series: ChargeSeries[];
  healthSeries: HealthSeries[];
  entries: BatteryEntry[];
  fleet: BatteryEntry;
}

export function loadBattery(scope: AnalysisScope): Promise<BatteryResult> {
  return callApi<BatteryResult>(`/v2/Analytics/Battery${analyticsQuery(scope)}`);
}
