import type {
  Dashboard,
  DashboardWidget,
  Productivity,
  ProductivityHistory,
  Statusboard,
} from '../api/analytics';
import type { AnalyticsPeriod } from '../api/analytics-processes';
import { kpiGrid } from '../pages/productivity/testData';

/**
 * Answers of the issue-4 analytics endpoints for whole-app tests: a fleet that has not sent
 * anything yet (empty but well-formed), and the user's dashboard layout kept in memory.
 * Returns null for any other url.
 */
export function fakeAnalyticsAnswer({
  url,
  method,
  body,
  layout,
}: {
  url: string;
  method: string;
  body: unknown;
  layout: { widgets: DashboardWidget[] };
}): { data: unknown } | null {
  const [path, search = ''] = url.split('?');
  if (path === '/v2/User/dashboard-layout') {
    if (method === 'PUT') {
      layout.widgets = body as DashboardWidget[];
    }
    return { data: layout.widgets };
  }
  const params = new URLSearchParams(search);
  const period: AnalyticsPeriod = {
    from: params.get('from') ?? '2026-03-02',
    to: params.get('to') ?? '2026-03-08',
    previousFrom: '2026-02-23',
    previousTo: '2026-03-01',
    days: 7,
    shift: params.get('shift') ?? 'all',
    combined: params.get('combined') === 'true',
    vehicleIds: (params.get('vehicles') ?? '').split(',').filter(Boolean).map(Number),
  };
  switch (path) {
    case '/v2/Analytics/Dashboard':
      return {
        data: {
          period,
          granularity: 'day',
          tiles: [],
          coverage: { periodSeconds: 604_800, noDataSeconds: 0 },
          previousCoverage: { periodSeconds: 604_800, noDataSeconds: 0 },
        } satisfies Dashboard,
      };
    case '/v2/Analytics/ProductivityHistory':
      return {
        data: {
          period,
          granularity: 'day',
          buckets: [],
          previousBuckets: [],
          series: [],
          kpis: kpiGrid([]),
          previous: kpiGrid([]),
        } satisfies ProductivityHistory,
      };
    case '/v2/Analytics/Statusboard':
      return {
        data: {
          generatedAt: '2026-03-08T12:00:00Z',
          stateOrder: ['error', 'offline', 'manual', 'charging', 'idle', 'working'],
          counts: {},
          vehicles: [],
        } satisfies Statusboard,
      };
    case '/v2/Analytics/Productivity': {
      const states = { offline: 0, error: 0, manual: 0, charging: 0, working: 0, idle: 0 };
      const kpis = {
        periodSeconds: 0,
        noDataSeconds: 0,
        plannedSeconds: 0,
        downtimeSeconds: 0,
        availability: null,
        utilization: null,
        idleShare: null,
        chargingShare: null,
        throughputPerHour: null,
        ordersFinished: 0,
        ordersFailed: 0,
        ordersCancelled: 0,
        orderSuccessRate: null,
        loadsHandled: 0,
        distanceKm: 0,
        distancePerOrderKm: null,
        cycleTimeP50Seconds: null,
        mtbfSeconds: null,
        mttrSeconds: null,
        stopErrors: 0,
        errors: 0,
        meanCharge: null,
        minCharge: null,
      };
      const fleet = {
        vehicleId: null,
        name: null,
        states,
        previousStates: states,
        kpis,
        previous: kpis,
      };
      return {
        data: {
          period,
          entries: [],
          fleet,
          heatmap: Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0)),
        } satisfies Productivity,
      };
    }
    default:
      return null;
  }
}
