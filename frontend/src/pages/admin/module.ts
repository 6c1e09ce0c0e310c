/**
 * The Administration app's one separately loaded module: the route table takes each page
 * from here, so the whole app is fetched once, when the superuser first opens it.
 */
export { AdminLayout } from './AdminLayout';
export { AuditPage } from './AuditPage';
export { DeadLettersPage } from './DeadLettersPage';
export { JobsPage } from './JobsPage';
export { OrganizationsPage } from './OrganizationsPage';
export { SiteDetailPage } from './SiteDetailPage';
export { SitesPage } from './SitesPage';
export { TokensPage } from './TokensPage';
export { UsersPage } from './UsersPage';
export { VehiclesPage } from './VehiclesPage';
