import {
  type AnalysisScope,
  type AnalyticsPeriod,
  analyticsQuery,
  type Page,
  type PageQuery,
  pageParams,
} from './analytics-processes';
import { callApi } from './client';
import type { Schemas } from './schema';

/** Battery analytics (`/v2/Analytics/Battery`). Charges are percentages (0..100). */

/** [at (UTC, epoch milliseconds), charge in percent]: the pair a chart line draws. */
export type ChargePoint = [at: number, charge: number];

export type ChargeSeries = Schemas['ChargeSeries'];

/** [at (UTC, epoch milliseconds), state of health (SoH) in percent]. */
export type HealthPoint = [at: number, health: number];

export type HealthSeries = Schemas['HealthSeries'];

export type SessionFigures = Schemas['SessionFigures'];

export interface BatteryFigures {
  /** T in vehicle seconds, and the part of it before a vehicle's first message. */
  periodSeconds: number;
  noDataSeconds: number;
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

/** A charge session starting in the period; charges in percent, `addedEnergyWh` null unless
 * the vehicle's battery capacity is known. */
export type ChargeSession = Schemas['ChargeSession'];

export interface ChargeSessionQuery extends PageQuery {
  /** One bar of the depth-of-discharge histogram: its lower bound (0, 10, ..., 90); null: all. */
  depth: number | null;
}

/** The charge sessions behind the session figures (`/v2/Analytics/Battery/Sessions`). */
export function loadChargeSessions(
  scope: AnalysisScope,
  query: ChargeSessionQuery,
): Promise<Page<ChargeSession>> {
  const extra = { ...pageParams(query), depth: query.depth };
  return callApi<Page<ChargeSession>>(
    `/v2/Analytics/Battery/Sessions${analyticsQuery(scope, extra)}`,
  );
}
