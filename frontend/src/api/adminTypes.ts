/**
 * Shapes of the Administration API (`/v2/Admin/...`, superuser only), camelCase as the
 * server sends them; instants are ISO 8601 UTC strings.
 */
import type { Language } from '../constants';
import type { Schemas } from './schema';
import type { Role } from './types';

/** The analytics `Page` shape every growing admin list is paged with. */
export interface AdminPage<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  pages: number;
  sort: string;
}

export type Organization = Schemas['OrganizationAdmin'];

export type AdminShift = Schemas['ShiftAdmin'];

export interface SiteAdmin {
  id: number;
  organizationId: number;
  organizationName: string;
  name: string;
  timeZone: string;
  mqttInterface?: string | null;
  shifts: AdminShift[];
  workflowRules: string[];
  loadActionTypes: string[];
  vehicleCount: number;
  /** Changes with every change of the site: sent back with a change (`SitePatch.version`). */
  version: string;
}

export interface SiteCreate {
  organizationId: number;
  name: string;
  timeZone: string;
  mqttInterface?: string;
}

export interface SitePatch {
  name?: string;
  timeZone?: string;
  mqttInterface?: string | null;
  shifts?: AdminShift[];
  workflowRules?: string[];
  loadActionTypes?: string[];
  /** The version the change was made on: another change landed since → 409, nothing saved. */
  version?: string;
}

export type JobState = 'queued' | 'running' | 'done' | 'failed';

export interface Job {
  id: number;
  state: JobState;
  reason: 'workflowRules' | 'vehicleSite' | 'loadActionTypes' | 'timeZone';
  siteId?: number | null;
  vehicleIds: number[];
  framesTotal: number;
  framesDone: number;
  percent: number;
  secondsLeft?: number | null;
  createdAt: string;
  startedAt?: string | null;
  finishedAt?: string | null;
  error?: string | null;
  createdBy: string;
}

export interface PreviewRule {
  index: number;
  pattern: string;
  error?: string | null;
  matched: number;
}

export interface PreviewOrder {
  orderId: string;
  workflow?: string | null;
  ruleIndex?: number | null;
}

export interface WorkflowPreview {
  rules: PreviewRule[];
  orders: PreviewOrder[];
  assigned: number;
  unassigned: number;
  /** No valid rule: the default rule (orderId without its trailing separator and number) assigns. */
  defaultRuleApplies?: boolean;
}

export interface VehicleAdmin {
  id: number;
  siteId: number;
  siteName: string;
  organizationId: number;
  manufacturer: string;
  serialNumber: string;
  name: string;
  model?: string | null;
  batteryCapacityWh?: number | null;
  protocolVersion?: string | null;
  retiredAt?: string | null;
}

export interface VehiclePatch {
  name?: string;
  batteryCapacityWh?: number | null;
  siteId?: number;
  retired?: boolean;
}

export interface UserAdmin {
  id: number;
  email: string;
  displayName: string | null;
  role: Role;
  organizationId?: number | null;
  organizationName?: string | null;
  /** Null: none chosen, the app follows the user's browser. */
  language: Language | null;
  isActive: boolean;
  /** The password is an administrator's (creation, reset) until the user chooses their own. */
  passwordTemporary?: boolean;
  createdAt: string;
  lastLoginAt?: string | null;
  partnerOrganizationIds: number[];
}

export interface UserCreate {
  email: string;
  role: Role;
  organizationId?: number | null;
  /** Null: the app follows the user's browser until they choose. */
  language: Language | null;
  displayName?: string;
}

export interface UserPatch {
  role?: Role;
  organizationId?: number | null;
  /** Null: none chosen, the user's browser decides again. */
  language?: Language | null;
  displayName?: string;
  isActive?: boolean;
}

export interface ApiToken {
  id: number;
  siteId: number;
  name: string;
  createdAt: string;
  lastUsedAt?: string | null;
  revokedAt?: string | null;
}

export interface DeadLetter {
  id: number;
  receivedAt: string;
  source: string;
  category: string;
  topic: string | null;
  payloadPreview: string;
  payloadSize: number;
  payloadSha256: string;
  payloadTruncated: boolean;
  reason: string;
}

export interface DeadLetterSource {
  source: string;
  category: string;
  stored: number;
  dropped: number;
}

export interface DeadLetterPage extends AdminPage<DeadLetter> {
  bySource: DeadLetterSource[];
}

export interface DeadLetterFilter {
  page: number;
  pageSize: number;
  source?: string;
  category?: string;
  reason?: string;
  receivedFrom?: string;
  receivedTo?: string;
}

export interface ReingestResult {
  accepted: boolean;
  reason?: string | null;
}

export interface AuditEntry {
  id: number;
  at: string;
  actor: string;
  via: 'web' | 'cli';
  action: string;
  entityType: string;
  entityId?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

export interface AuditFilter {
  page: number;
  pageSize: number;
  action?: string;
  entityType?: string;
  actor?: string;
  from?: string;
  to?: string;
}

export interface UserFilter {
  page: number;
  pageSize: number;
  search?: string;
  role?: Role;
  organizationId?: number;
}

/** A site's change, with the re-derivation it started (none for shifts or a name). */
export interface SiteUpdated {
  site: SiteAdmin;
  job: Job | null;
}

/** A vehicle's change, with the re-derivation a move to another site started. */
export interface VehicleUpdated {
  vehicle: VehicleAdmin;
  job: Job | null;
}

export interface UserCreated {
  user: UserAdmin;
  /** Shown once, in this answer only. */
  temporaryPassword: string;
}

export type PasswordReset = Schemas['PasswordResetOut'];

export interface TokenCreated extends ApiToken {
  /** The secret, shown once, in this answer only. */
  token: string;
}

export type PartnerOrganizations = Schemas['PartnerOrganizations'];
