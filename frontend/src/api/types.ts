import type { RelativeRange } from '../lib/relativeRange';
/** API shapes (camelCase, as the server sends them). */
export const ROLES = ['superuser', 'customer', 'partner', 'support', 'service'] as const;
export type Role = (typeof ROLES)[number];

export type Id = string | number;

export interface User {
  id: Id;
  email: string;
  role: Role;
  organizationId: Id | null;
  displayName: string | null;
  language: string | null;
  /**
   * True while the password is one an administrator set (creation or reset). Optional:
   * answers of servers before this field, and older fixtures, leave it out.
   */
  passwordTemporary?: boolean;
}

export const DATE_MODES = ['day', 'week', 'month', 'year', 'custom'] as const;
export type DateMode = (typeof DATE_MODES)[number];

/** 'all' or the id of one shift. */
export type WorkflowShift = 'all' | Id;

export interface DateSelectorSettings {
  mode: DateMode;
  /** ISO dates YYYY-MM-DD, both inclusive. */
  from: string;
  to: string;
  combined: boolean;
  workflowShift: WorkflowShift;
  /** A relative range saved by name (lib/relativeRange); from/to are the days it gave then. */
  relativeRange?: RelativeRange | null;
}

export interface AppSettings {
  dateSelector: DateSelectorSettings;
  selectedMachines: Id[];
  onboardingWatched: boolean;
}

export interface Vehicle {
  id: Id;
  name: string;
  manufacturer: string;
  serialNumber: string;
  model: string | null;
  siteId: Id;
  siteName: string;
  organizationId: Id;
  organizationName: string;
  protocolVersion: string | null;
  batteryCapacityWh: number | null;
  /** Out of service since (no live tile, not among "all machines" later); null: in service. */
  retiredAt: string | null;
}

export interface Shift {
  id: Id;
  name: string;
  start: string;
  end: string;
  weekdays: number[];
}

export interface Site {
  id: Id;
  name: string;
  timeZone: string;
  organizationId: Id;
  organizationName: string;
  shifts: Shift[];
}
