import { vi } from 'vitest';
import type { DashboardWidget } from '../api/analytics';
import type { AppSettings, Role, Site, User, Vehicle } from '../api/types';
import { fakeAnalyticsAnswer } from './fakeAnalytics';
import { jsonResponse } from './fakeServer';

export interface FakeApiState {
  user: User | null;
  settings: AppSettings;
  vehicles: Vehicle[];
  sites: Site[];
}

export function demoUser(role: Role, language = 'en'): User {
  return {
    id: 1,
    email: `${role}@demo.fleetscope`,
    role,
    organizationId: 1,
    displayName: null,
    language,
  };
}

export function demoVehicle(id: number): Vehicle {
  return {
    id,
    name: `AGV-0${id}`,
    manufacturer: 'Sim',
    serialNumber: `AGV-0${id}`,
    model: null,
    siteId: 1,
    siteName: 'Werk Nord',
    organizationId: 1,
    organizationName: 'Acme',
    protocolVersion: '2.0.0',
    batteryCapacityWh: null,
    retiredAt: null,
  };
}

export const demoSite: Site = {
  id: 1,
  name: 'Werk Nord',
  timeZone: 'Europe/Berlin',
  organizationId: 1,
  organizationName: 'Acme',
  shifts: [
    { id: 'early', name: 'Early', start: '06:00', end: '14:00', weekdays: [0, 1, 2, 3, 4, 5, 6] },
  ],
};

/** A small in-memory stand-in for the server's API contract, for component tests. */
export function fakeApi(partial: Partial<FakeApiState> = {}) {
  const state: FakeApiState = {
    user: null,
    settings: {
      dateSelector: {
        mode: 'week',
        from: '2026-03-02',
        to: '2026-03-08',
        combined: false,
        workflowShift: 'all',
      },
      selectedMachines: [],
      onboardingWatched: true,
    },
    vehicles: [demoVehicle(1), demoVehicle(2)],
    sites: [demoSite],
    ...partial,
  };
  const envelope = (data: unknown) => jsonResponse({ status: true, msg: null, data });
  const dashboardLayout: { widgets: DashboardWidget[] } = { widgets: [] };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    if (url === '/v2/User/login') {
      return jsonResponse({ status: false, msg: 'invalid email or password', data: null }, 401);
    }
    if (!state.user) {
      return jsonResponse({ status: false, msg: 'authentication failed', data: null }, 401);
    }
    if (url === '/v2/User/me') {
      return envelope(state.user);
    }
    if (url === '/v2/User/settings' && method === 'PATCH') {
      state.settings = {
        ...state.settings,
        ...body,
        dateSelector: { ...state.settings.dateSelector, ...(body?.dateSelector ?? {}) },
      };
      return envelope(state.settings);
    }
    if (url === '/v2/User/settings') {
      return envelope(state.settings);
    }
    if (url === '/v2/Vehicles') {
      return envelope(state.vehicles);
    }
    if (url === '/v2/Sites') {
      return envelope(state.sites);
    }
    if (url === '/v2/User/logout') {
      state.user = null;
      return envelope(null);
    }
    const analytics = fakeAnalyticsAnswer({ url, method, body, layout: dashboardLayout });
    if (analytics) {
      return envelope(analytics.data);
    }
    return jsonResponse({ status: false, msg: `${url} not found`, data: null }, 404);
  });
  return { state, fetchMock };
}
