/**
 * The pages of the shell (spec section 2) with their help topic and the KPI definitions
 * of product.md section 3 that apply to them. Pure data: used by the menu, the help
 * overlay and the page headers.
 */
export type KpiId =
  | 'period'
  | 'plannedTime'
  | 'availability'
  | 'utilization'
  | 'throughput'
  | 'loads'
  | 'cycleTime'
  | 'successRate'
  | 'mtbf'
  | 'mttr'
  | 'errorsPerOrders'
  | 'distance'
  | 'chargeLevel'
  | 'chargeSessions'
  | 'depthOfDischarge'
  | 'fullCycles'
  | 'health'
  | 'percentiles'
  | 'errors'
  | 'chargingShare'
  | 'actions'
  | 'vehicleStates'
  | 'waitingPaused';

export type PageTopic =
  | 'dashboard'
  | 'statusboard'
  | 'productivityAnalysis'
  | 'productivityHistory'
  | 'processesAnalysis'
  | 'processesWorkflows'
  | 'processesActions'
  | 'failuresAnalysis'
  | 'failuresOverview'
  | 'failuresVisualization'
  | 'failuresHistory'
  | 'battery';

export interface PageInfo {
  path: string;
  topic: PageTopic;
  kpis: KpiId[];
}

/** The KPIs of both productivity pages (the analysis and its history). */
const PRODUCTIVITY_KPIS: KpiId[] = [
  'plannedTime',
  'availability',
  'utilization',
  'throughput',
  'loads',
  'distance',
];

export const PAGES: readonly PageInfo[] = [
  {
    path: '/dashboards/dashboard',
    topic: 'dashboard',
    kpis: [
      'period',
      'plannedTime',
      'availability',
      'utilization',
      'throughput',
      'cycleTime',
      'percentiles',
      'mtbf',
      'mttr',
      'errors',
      'chargeLevel',
    ],
  },
  { path: '/dashboards/statusboard', topic: 'statusboard', kpis: ['vehicleStates'] },
  {
    path: '/productivity/analysis',
    topic: 'productivityAnalysis',
    kpis: ['period', 'vehicleStates', ...PRODUCTIVITY_KPIS],
  },
  {
    path: '/productivity/history',
    topic: 'productivityHistory',
    kpis: ['period', ...PRODUCTIVITY_KPIS],
  },
  {
    path: '/processes/analysis',
    topic: 'processesAnalysis',
    kpis: ['period', 'cycleTime', 'percentiles', 'successRate', 'waitingPaused'],
  },
  {
    path: '/processes/workflows',
    topic: 'processesWorkflows',
    kpis: ['period', 'cycleTime', 'percentiles', 'successRate'],
  },
  {
    path: '/processes/actions',
    topic: 'processesActions',
    kpis: ['period', 'actions', 'percentiles'],
  },
  {
    path: '/failures/analysis',
    topic: 'failuresAnalysis',
    kpis: ['period', 'plannedTime', 'errors', 'mtbf', 'mttr', 'errorsPerOrders'],
  },
  { path: '/failures/overview', topic: 'failuresOverview', kpis: ['period', 'errors'] },
  { path: '/failures/visualization', topic: 'failuresVisualization', kpis: ['period', 'errors'] },
  { path: '/failures/history', topic: 'failuresHistory', kpis: ['period', 'errors', 'mttr'] },
  {
    path: '/battery',
    topic: 'battery',
    kpis: [
      'period',
      'chargeLevel',
      'chargingShare',
      'chargeSessions',
      'depthOfDischarge',
      'fullCycles',
      'health',
    ],
  },
];

/** The page shown at a router pathname (exact or below it), or null. */
export function pageForPath(pathname: string): PageInfo | null {
  const clean = pathname.replace(/\/+$/, '') || '/';
  return PAGES.find((page) => clean === page.path || clean.startsWith(`${page.path}/`)) ?? null;
}

export function pageByTopic(topic: PageTopic): PageInfo {
  const page = PAGES.find((candidate) => candidate.topic === topic);
  if (!page) {
    throw new Error(`unknown page topic ${topic}`);
  }
  return page;
}
