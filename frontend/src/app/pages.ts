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
  | 'health';

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

export const PAGES: readonly PageInfo[] = [
  {
    path: '/dashboards/dashboard',
    topic: 'dashboard',
    kpis: [
      'period',
      'availability',
      'utilization',
      'throughput',
      'cycleTime',
      'mtbf',
      'mttr',
      'chargeLevel',
    ],
  },
  { path: '/dashboards/statusboard', topic: 'statusboard', kpis: ['chargeLevel'] },
  {
    path: '/productivity/analysis',
    topic: 'productivityAnalysis',
    kpis: [
      'period',
      'plannedTime',
      'availability',
      'utilization',
      'throughput',
      'loads',
      'distance',
    ],
  },
  {
    path: '/productivity/history',
    topic: 'productivityHistory',
    kpis: ['period', 'plannedTime', 'availability', 'utilization', 'throughput'],
  },
  {
    path: '/processes/analysis',
    topic: 'processesAnalysis',
    kpis: ['period', 'cycleTime', 'successRate'],
  },
  {
    path: '/processes/workflows',
    topic: 'processesWorkflows',
    kpis: ['period', 'cycleTime', 'successRate'],
  },
  { path: '/processes/actions', topic: 'processesActions', kpis: ['period', 'loads'] },
  {
    path: '/failures/analysis',
    topic: 'failuresAnalysis',
    kpis: ['period', 'plannedTime', 'mtbf', 'mttr', 'errorsPerOrders'],
  },
  { path: '/failures/overview', topic: 'failuresOverview', kpis: ['period', 'errorsPerOrders'] },
  { path: '/failures/visualization', topic: 'failuresVisualization', kpis: ['period', 'distance'] },
  { path: '/failures/history', topic: 'failuresHistory', kpis: ['period', 'mttr'] },
  {
    path: '/battery',
    topic: 'battery',
    kpis: ['period', 'chargeLevel', 'chargeSessions', 'depthOfDischarge', 'fullCycles', 'health'],
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
