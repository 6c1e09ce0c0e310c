import type { RelativeRange } from '../lib/relativeRange';
import { callApi } from './client';
import type { Schemas } from './schema';
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

function patchSettings(body: Schemas['AppSettingsPatch']): Promise<AppSettings> {
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
  return patchSettings({ dateSelector: { mode, from, to, workflowShift: String(workflowShift) } });
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
  // Ids the page read from its URL may be text; the server stores numbers.
  return patchSettings({
    selectedMachines: selectedMachines.map(Number),
    dateSelector: { combined },
  });
}

export function saveWorkflowShift({
  workflowShift,
}: {
  workflowShift: WorkflowShift;
}): Promise<AppSettings> {
  return patchSettings({ dateSelector: { workflowShift: String(workflowShift) } });
}

export function markOnboardingWatched(): Promise<AppSettings> {
  return patchSettings({ onboardingWatched: true });
}
