/**
 * The Administration API (`/v2/Admin/...`) through the one request chain, as an excluded
 * route: every call shows its failure itself (a toast or the form field), not in the error
 * overlay, and reads what is stored now (no response cache). A lost session still leads to
 * login (`followSessionRule`). A change empties the response cache, because names, sites
 * and workflows of the analytics pages follow it; so does the end of a re-derivation this
 * tab followed, which changes the facts themselves.
 */
import type {
  AdminPage,
  ApiToken,
  AuditEntry,
  AuditFilter,
  DeadLetterFilter,
  DeadLetterPage,
  Job,
  Organization,
  PartnerOrganizations,
  PasswordReset,
  ReingestResult,
  SiteAdmin,
  SiteCreate,
  SitePatch,
  SiteUpdated,
  TokenCreated,
  UserAdmin,
  UserCreate,
  UserCreated,
  UserFilter,
  UserPatch,
  VehicleAdmin,
  VehiclePatch,
  VehicleUpdated,
  WorkflowPreview,
} from './adminTypes';
import {
  ApiFailure,
  callApi,
  clearResponseCache,
  followSessionRule,
  type HttpMethod,
  type RequestOptions,
} from './client';
import type { Schemas } from './schema';
import { resetLoadedVehicles } from './vehicles';

const BASE = '/v2/Admin';

/** A query string of the set values (undefined, null and '' left out). */
export function queryString(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') {
      search.set(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A call of the Administration API; a lost session ends here as on every other route. */
async function adminCall<T>(path: string, options: RequestOptions = {}): Promise<T> {
  try {
    return await callApi<T>(`${BASE}${path}`, options);
  } catch (error) {
    if (error instanceof ApiFailure) {
      followSessionRule(error.serverMessage);
    }
    throw error;
  }
}

function read<T>(path: string, signal?: AbortSignal): Promise<T> {
  return adminCall<T>(path, signal ? { signal } : {});
}

const storedDataListeners = new Set<() => void>();

/**
 * Calls `listener` whenever what the analytics show may have changed here: after every
 * change, and when a re-derivation this tab saw working has ended. Returns the unsubscribe.
 */
export function onStoredDataChange(listener: () => void): () => void {
  storedDataListeners.add(listener);
  return () => storedDataListeners.delete(listener);
}

function storedDataChanged(): void {
  clearResponseCache();
  resetLoadedVehicles();
  for (const listener of storedDataListeners) {
    listener();
  }
}

/** Jobs seen queued or running; one seen so that has ended changed the facts. */
const workingJobs = new Set<number>();

function noteJobs(jobs: readonly (Job | null | undefined)[]): void {
  let ended = false;
  for (const job of jobs) {
    if (!job) {
      continue;
    }
    if (job.state === 'queued' || job.state === 'running') {
      workingJobs.add(job.id);
    } else if (workingJobs.delete(job.id)) {
      ended = true;
    }
  }
  if (ended) {
    storedDataChanged();
  }
}

async function change<T>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
  const result = await adminCall<T>(path, { method, ...(body === undefined ? {} : { body }) });
  storedDataChanged();
  return result;
}

/** A PATCH whose answer may carry the re-derivation it started: followed for its end. */
async function changeStartingJob<T extends { job: Job | null }>(
  path: string,
  body: unknown,
): Promise<T> {
  const updated = await change<T>('PATCH', path, body);
  noteJobs([updated.job]);
  return updated;
}

function list<T>(value: T[] | null | undefined): T[] {
  return Array.isArray(value) ? value : [];
}

// Organizations and partner links
export async function listOrganizations(): Promise<Organization[]> {
  return list(await read<Organization[]>('/Organizations'));
}
export const createOrganization = (name: string) =>
  change<Organization>('POST', '/Organizations', { name } satisfies Schemas['OrganizationBody']);
export const renameOrganization = (id: number, name: string) =>
  change<Organization>('PATCH', `/Organizations/${id}`, {
    name,
  } satisfies Schemas['OrganizationBody']);
export const deleteOrganization = (id: number) => change<null>('DELETE', `/Organizations/${id}`);

export const partnerOrganizations = (userId: number) =>
  read<PartnerOrganizations>(`/Users/${userId}/PartnerOrganizations`);
/** Made on `editedFrom` (the list shown): refused (409) if another administrator saved since. */
export const savePartnerOrganizations = (
  userId: number,
  organizationIds: number[],
  editedFrom: number[],
) =>
  change<PartnerOrganizations>('PUT', `/Users/${userId}/PartnerOrganizations`, {
    organizationIds,
    editedFrom,
  } satisfies Schemas['PartnerLinksChange']);

// Sites
export async function listSites(organizationId?: number): Promise<SiteAdmin[]> {
  return list(await read<SiteAdmin[]>(`/Sites${queryString({ organizationId })}`));
}
export const getSite = (id: number) => read<SiteAdmin>(`/Sites/${id}`);
export const createSite = (site: SiteCreate) => change<SiteAdmin>('POST', '/Sites', site);
export const updateSite = (id: number, patch: SitePatch) =>
  changeStartingJob<SiteUpdated>(`/Sites/${id}`, patch);
export const deleteSite = (id: number) => change<null>('DELETE', `/Sites/${id}`);
export async function listTimeZones(): Promise<string[]> {
  return list(await read<string[]>('/TimeZones'));
}
/** A read with a body: changes nothing, never cached (the rules change while typing). */
export function previewWorkflows(
  siteId: number,
  workflowRules: string[],
  signal?: AbortSignal,
): Promise<WorkflowPreview> {
  return adminCall<WorkflowPreview>(`/Sites/${siteId}/WorkflowPreview`, {
    method: 'POST',
    body: { workflowRules } satisfies Schemas['WorkflowPreviewBody'],
    ...(signal ? { signal } : {}),
  });
}

// Vehicles
export async function listAdminVehicles(filter: {
  siteId?: number;
  organizationId?: number;
}): Promise<VehicleAdmin[]> {
  return list(await read<VehicleAdmin[]>(`/Vehicles${queryString(filter)}`));
}
export const updateVehicle = (id: number, patch: VehiclePatch) =>
  changeStartingJob<VehicleUpdated>(`/Vehicles/${id}`, patch);

// Users
export const listUsers = (filter: UserFilter) =>
  read<AdminPage<UserAdmin>>(`/Users${queryString({ ...filter })}`);
export const createUser = (user: UserCreate) => change<UserCreated>('POST', '/Users', user);
export const updateUser = (id: number, patch: UserPatch) =>
  change<UserAdmin>('PATCH', `/Users/${id}`, patch);
export const resetPassword = (id: number) =>
  change<PasswordReset>('POST', `/Users/${id}/PasswordReset`);
export const deleteUser = (id: number) => change<null>('DELETE', `/Users/${id}`);

// API tokens
export async function listTokens(siteId: number): Promise<ApiToken[]> {
  return list(await read<ApiToken[]>(`/Sites/${siteId}/Tokens`));
}
export const createToken = (siteId: number, name: string) =>
  change<TokenCreated>('POST', `/Sites/${siteId}/Tokens`, {
    name,
  } satisfies Schemas['TokenCreate']);
export const revokeToken = (siteId: number, id: number) =>
  change<ApiToken>('DELETE', `/Sites/${siteId}/Tokens/${id}`);

// Dead letters
export const listDeadLetters = (filter: DeadLetterFilter) =>
  read<DeadLetterPage>(`/DeadLetters${queryString({ ...filter })}`);
export const deleteDeadLetter = (id: number) => change<null>('DELETE', `/DeadLetters/${id}`);
export const reingestDeadLetter = (id: number, payload?: string) =>
  change<ReingestResult>(
    'POST',
    `/DeadLetters/${id}/Reingest`,
    (payload === undefined ? {} : { payload }) satisfies Schemas['ReingestBody'],
  );
/** Where the browser downloads the stored payload (an attachment, not an envelope). */
export const deadLetterPayloadUrl = (id: number) => `${BASE}/DeadLetters/${id}/Payload`;

/**
 * The stored payload as text, for viewing and editing. The answer is the raw bytes (often
 * not JSON at all: that is why it is a dead letter), so it cannot pass the chain's
 * envelope reading; a failure names the HTTP status.
 */
export async function deadLetterPayload(id: number, signal?: AbortSignal): Promise<string> {
  const response = await fetch(deadLetterPayloadUrl(id), {
    credentials: 'same-origin',
    ...(signal ? { signal } : {}),
  });
  if (!response.ok) {
    throw new Error(`HTTP ${response.status}`);
  }
  return response.text();
}

// Re-derivation jobs
export const listJobs = (page: number, pageSize: number) =>
  read<AdminPage<Job>>(`/Jobs${queryString({ page, pageSize })}`).then((jobs) => {
    noteJobs(jobs.items);
    return jobs;
  });
export const getJob = (id: number) =>
  read<Job>(`/Jobs/${id}`).then((job) => {
    noteJobs([job]);
    return job;
  });

// Audit log
export const listAudit = (filter: AuditFilter) =>
  read<AdminPage<AuditEntry>>(`/Audit${queryString({ ...filter })}`);
