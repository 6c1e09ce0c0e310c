import { createHashRouter, type RouteObject } from 'react-router';
import { RouteError } from '../components/layout/RouteError';
import { StartupScreen } from '../components/layout/StartupScreen';
import {
  loginLoader,
  redirectKeepingQuery,
  requireLogin,
  requireSuperuser,
  requireVehicles,
} from './guards';
import { Shell } from './Shell';
import { VehicleGate } from './VehicleGate';

type PageModule = Promise<{ default: React.ComponentType }>;

/** A separately loaded page: its module is fetched only when the route is visited. */
function lazyPage(load: () => PageModule): RouteObject['lazy'] {
  return async () => ({ Component: (await load()).default });
}

/** An area behind the login check and the extra (vehicle) check, with its sub-pages. */
function guardedArea(path: string, children: RouteObject[]): RouteObject {
  return { path, loader: requireVehicles, Component: VehicleGate, children };
}

type AdminModule = typeof import('../pages/admin/module');

/**
 * A page of the Administration app: every admin page comes from one separately loaded
 * module, fetched when the superuser first opens the app.
 */
function adminPage(name: keyof AdminModule): RouteObject['lazy'] {
  return async () => ({ Component: (await import('../pages/admin/module'))[name] });
}

/** The Administration app (issue 25): superuser only, its own pages below /admin. */
const adminRoutes: RouteObject = {
  path: 'admin',
  loader: requireSuperuser,
  lazy: adminPage('AdminLayout'),
  children: [
    { index: true, loader: redirectKeepingQuery('/admin/organizations'), element: null },
    { path: 'organizations', lazy: adminPage('OrganizationsPage') },
    { path: 'sites', lazy: adminPage('SitesPage') },
    { path: 'sites/:siteId', lazy: adminPage('SiteDetailPage') },
    { path: 'vehicles', lazy: adminPage('VehiclesPage') },
    { path: 'users', lazy: adminPage('UsersPage') },
    { path: 'tokens', lazy: adminPage('TokensPage') },
    { path: 'deadLetters', lazy: adminPage('DeadLettersPage') },
    { path: 'jobs', lazy: adminPage('JobsPage') },
    { path: 'audit', lazy: adminPage('AuditPage') },
    { path: '*', loader: redirectKeepingQuery('/admin/organizations'), element: null },
  ],
};

/** Sub-route redirect: productivity -> productivity/analysis and so on. */
function defaultSubPage(path: string, child: string): RouteObject {
  return { index: true, loader: redirectKeepingQuery(`/${path}/${child}`), element: null };
}

/** The one route table (spec section 2). */
export const routes: RouteObject[] = [
  {
    path: '/login',
    loader: loginLoader,
    lazy: lazyPage(() => import('../pages/login/LoginPage')),
    errorElement: <RouteError />,
    HydrateFallback: StartupScreen,
  },
  {
    path: '/',
    loader: requireLogin,
    Component: Shell,
    errorElement: <RouteError />,
    HydrateFallback: StartupScreen,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { index: true, loader: redirectKeepingQuery('/dashboards'), element: null },
          {
            path: 'dashboards',
            children: [
              { index: true, loader: redirectKeepingQuery('/dashboards/dashboard'), element: null },
              {
                path: 'dashboard',
                lazy: lazyPage(() => import('../pages/dashboards/DashboardPage')),
              },
              {
                path: 'statusboard',
                lazy: lazyPage(() => import('../pages/dashboards/StatusboardPage')),
              },
            ],
          },
          guardedArea('productivity', [
            defaultSubPage('productivity', 'analysis'),
            {
              path: 'analysis',
              lazy: lazyPage(() => import('../pages/productivity/ProductivityAnalysisPage')),
            },
            {
              path: 'history',
              lazy: lazyPage(() => import('../pages/productivity/ProductivityHistoryPage')),
            },
          ]),
          guardedArea('processes', [
            defaultSubPage('processes', 'analysis'),
            {
              path: 'analysis',
              lazy: lazyPage(() => import('../pages/processes/ProcessesAnalysisPage')),
            },
            {
              path: 'workflows',
              lazy: lazyPage(() => import('../pages/processes/ProcessesWorkflowsPage')),
            },
            {
              path: 'actions',
              lazy: lazyPage(() => import('../pages/processes/ProcessesActionsPage')),
            },
          ]),
          guardedArea('failures', [
            defaultSubPage('failures', 'analysis'),
            {
              path: 'analysis',
              lazy: lazyPage(() => import('../pages/failures/FailuresAnalysisPage')),
            },
            {
              path: 'overview',
              lazy: lazyPage(() => import('../pages/failures/FailuresOverviewPage')),
            },
            {
              path: 'visualization',
              lazy: lazyPage(() => import('../pages/failures/FailuresVisualizationPage')),
            },
            {
              path: 'history',
              lazy: lazyPage(() => import('../pages/failures/FailuresHistoryPage')),
            },
          ]),
          guardedArea('battery', [
            { index: true, lazy: lazyPage(() => import('../pages/battery/BatteryPage')) },
          ]),
          adminRoutes,
          { path: '*', loader: redirectKeepingQuery('/dashboards'), element: null },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createHashRouter(routes);
}
