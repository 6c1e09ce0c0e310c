import { STATISTICS_COOKIE } from '../constants';
import { request } from './client';
import { readCookie } from './cookies';
import type { Schemas } from './schema';
import type { Role } from './types';

/** Page-view events only with the statistics cookie set and in a production build. */
export function shouldSendPageView({
  cookies,
  production,
}: {
  cookies: string;
  production: boolean;
}): boolean {
  return production && readCookie(STATISTICS_COOKIE, cookies) !== null;
}

export interface PageViewEvent {
  event: 'page_view';
  path: string;
  role: Role;
}

export function pageViewEvent({ path, role }: { path: string; role: Role }): PageViewEvent {
  return { event: 'page_view', path, role };
}

/** POST /v2/Events; an excluded route, so failures never bother the user. */
export async function sendPageView({ path, role }: { path: string; role: Role }): Promise<void> {
  const body = pageViewEvent({ path, role }) satisfies Schemas['EventBody'];
  await request('/v2/Events', { method: 'POST', body });
}
