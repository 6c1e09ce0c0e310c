import { type LoaderFunctionArgs, redirect } from 'react-router';
import type { User, Vehicle } from '../api/types';
import { loadVehicles } from '../api/vehicles';
import { ensureSession, getSession } from './session';

/** Where the login page sends the user back to: the page they came from. */
export function loginPathFor(request: Request): string {
  const url = new URL(request.url);
  const from = `${url.pathname}${url.search}`;
  return from === '/' ? '/login' : `/login?from=${encodeURIComponent(from)}`;
}

/** The target after login: only paths inside the app, never another site or the login itself. */
export function safeReturnPath(from: string | null): string {
  if (!from?.startsWith('/') || from.startsWith('//') || from.startsWith('/login')) {
    return '/dashboards';
  }
  return from;
}

/**
 * Login check (spec section 6: analytics pages require being logged in). A session lost
 * while the page was closed gets the expired-session message too (spec section 4).
 */
export async function requireLogin({ request }: LoaderFunctionArgs): Promise<User> {
  const user = await ensureSession();
  if (!user) {
    const path = loginPathFor(request);
    const lost = getSession().lost === true;
    throw redirect(lost ? `${path}${path.includes('?') ? '&' : '?'}error=session` : path);
  }
  return user;
}

/**
 * The Administration app is the superuser's: anyone else who types an admin URL lands on
 * the dashboard (the server answers its admin calls with 404 anyway).
 */
export async function requireSuperuser(args: LoaderFunctionArgs): Promise<User> {
  const user = await requireLogin(args);
  if (user.role !== 'superuser') {
    throw redirect('/dashboards');
  }
  return user;
}

export interface VehicleCheckData {
  vehicles: Vehicle[];
}

/**
 * The extra check of productivity, processes, failures and battery: the vehicles for the
 * selected machines are loaded (skipped if already loaded); the gate component shows a
 * clear empty state when the user has none.
 */
export async function requireVehicles(args: LoaderFunctionArgs): Promise<VehicleCheckData> {
  await requireLogin(args);
  return { vehicles: await loadVehicles() };
}

/** Redirect that keeps the query (for example ?displayMode=true). */
export function redirectKeepingQuery(target: string) {
  return ({ request }: LoaderFunctionArgs) => redirect(`${target}${new URL(request.url).search}`);
}

/** The login page is for logged-out users; a logged-in user goes where they wanted to. */
export async function loginLoader({ request }: LoaderFunctionArgs): Promise<null> {
  const url = new URL(request.url);
  if (url.searchParams.get('error') === 'session') {
    return null;
  }
  const user = await ensureSession();
  if (user) {
    throw redirect(safeReturnPath(url.searchParams.get('from')));
  }
  return null;
}
