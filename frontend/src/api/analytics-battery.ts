import { type AnalysisScope, type AnalyticsPeriod, analyticsQuery } from './analytics-processes';
import { callApi } from './client';

/** Battery analytics (`/v2/Analytics/Battery`). Charges are percentages (0..100). */

export interface ChargePoint {
  at: string;
  charge: number;
}

export interface ChargeSeries {
  vehicleId: number;
  name: string;
  /** Downsampled to what a chart can show, within the period only. */
  points: ChargePoint[];
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
  entries: BatteryEntry[];
  fleet: BatteryEntry;
}

export function loadBattery(scope: AnalysisScope): Promise<BatteryResult> {
  return callApi<BatteryResult>(`/v2/Analytics/Battery${analyticsQuery(scope)}`);
}
