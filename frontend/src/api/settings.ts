import type { RelativeRange } from '../lib/relativeRange';
import { callApi } from './client';
import type { AppSettings, DateMode, Id, WorkflowShift } from './types';

/**
 * The saved operations of spec section 7, one function each, all through
 * PATCH /v2/User/settings (which takes any subset; dateSelector may be partial).
 */
const SETTINGS_URL = '/v2/User/settings';

interface DateFilter {
  mode: DateMode;
  from: string;
  to: string;
}

function patchSettings(body: Record<string, unknown>): Promise<AppSettings> {
  return callApi<AppSettings>(SETTINGS_URL, { method: 'PATCH', body });
}

export function loadSettings(): Promise<AppSettings> {
  return callApi<AppSettings>(SETTINGS_URL);
}

export function saveDateFilter({ mode, from, to }: DateFilter): Promise<AppSettings> {
  return patchSettings({ dateSelector: { mode, from, to } });
}

/** A relative range by name (kept relative by the server); from/to: the days it gives now. */
export function saveRelativeRange({
  mode,
  from,
  to,
  relativeRange,
}: DateFilter & { relativeRange: RelativeRange }): Promise<AppSettings> {
  return patchSettings({ dateSelector: { mode, from, to, relativeRange } });
}

export function saveDateFilterAndShift({
  mode,
  from,
  to,
  workflowShift,
}: DateFilter & { workflowShift: WorkflowShift }): Promise<AppSettings> {
  return patchSettings({ dateSelector: { mode, from, to, workflowShift } });
}

export function saveCombinedMode({ combined }: { combined: boolean }): Promise<AppSettings> {
  return patchSettings({ dateSelector: { combined } });
}

export function saveVehiclesAndMode({
  selectedMachines,
  combined,
}: {
  selectedMachines: Id[];
  combined: boolean;
}): Promise<AppSettings> {
  return patchSettings({ selectedMachines, dateSelector: { combined } });
}

export function saveWorkflowShift({
  workflowShift,
}: {
  workflowShift: WorkflowShift;
}): Promise<AppSettings> {
  return patchSettings({ dateSelector: { workflowShift } });
}

export function markOnboardingWatched(): Promise<AppSettings> {
  return patchSettings({ onboardingWatched: true });
}
