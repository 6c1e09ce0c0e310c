import { type APIResponse, test as base, expect, type Page } from '@playwright/test';
import type { Language } from './i18n';
import type { TestUser } from './users';

/**
 * Shared fixtures: the server address from the global setup, a browser context that has
 * answered the cookie banner, and `app`, which logs in through the API and resets the
 * saved state a test depends on.
 */

export function serverUrl(): string {
  const url = process.env.E2E_BASE_URL;
  if (!url) {
    throw new Error('E2E_BASE_URL is not set: run the tests with `npm run e2e` (global setup)');
  }
  return url;
}

const CSRF_COOKIE = 'fleetscope_csrf';
export const SESSION_COOKIE = 'fleetscope_session';
const CONSENT_ANSWERED_COOKIE = 'fleetscope_consent';

export interface SavedSettings {
  dateSelector: {
    mode: string;
    from: string;
    to: string;
    combined: boolean;
    workflowShift: string | number;
  };
  selectedMachines: Array<string | number>;
  onboardingWatched: boolean;
}

/** A vehicle as GET /v2/Vehicles lists it (the fields the tests use). */
export interface ApiVehicle {
  id: number;
  name: string;
  manufacturer: string;
  serialNumber: string;
  protocolVersion: string | null;
  siteName: string;
  organizationName: string;
}

interface Envelope<T> {
  status: boolean;
  msg: string | null;
  data: T;
}

async function envelopeOf<T>(response: APIResponse, what: string): Promise<T> {
  const body = (await response.json()) as Envelope<T>;
  if (!response.ok() || !body.status) {
    throw new Error(`${what} failed: HTTP ${response.status()} ${JSON.stringify(body)}`);
  }
  return body.data;
}

export class App {
  constructor(readonly page: Page) {}

  private async csrfHeader(): Promise<Record<string, string>> {
    const cookies = await this.page.context().cookies(serverUrl());
    const token = cookies.find((cookie) => cookie.name === CSRF_COOKIE)?.value;
    if (!token) {
      throw new Error('no CSRF cookie: log in first');
    }
    return { 'X-CSRF-Token': token };
  }

  /**
   * Logs `user` in through the API (the browser context gets the session cookie) and sets
   * the saved state the test expects: onboarding watched unless asked otherwise, language.
   */
  async login(
    user: TestUser,
    {
      onboardingWatched = true,
      language,
    }: { onboardingWatched?: boolean; language?: Language } = {},
  ): Promise<void> {
    const response = await this.page.request.post('/v2/User/login', {
      data: { email: user.email, password: user.password },
    });
    await envelopeOf(response, `login of ${user.email}`);
    await this.patchSettings({ onboardingWatched });
    if (language) {
      await this.patchMe({ language });
    }
  }

  async patchSettings(patch: Record<string, unknown>): Promise<SavedSettings> {
    const response = await this.page.request.patch('/v2/User/settings', {
      data: patch,
      headers: await this.csrfHeader(),
    });
    return envelopeOf<SavedSettings>(response, 'PATCH /v2/User/settings');
  }

  async settings(): Promise<SavedSettings> {
    return envelopeOf<SavedSettings>(
      await this.page.request.get('/v2/User/settings'),
      'GET /v2/User/settings',
    );
  }

  async patchMe(patch: Record<string, unknown>): Promise<void> {
    const response = await this.page.request.patch('/v2/User/me', {
      data: patch,
      headers: await this.csrfHeader(),
    });
    await envelopeOf(response, 'PATCH /v2/User/me');
  }

  /** A GET of the API as the logged-in user (its envelope's data). */
  async read<T>(path: string): Promise<T> {
    return envelopeOf<T>(await this.page.request.get(path), `GET ${path}`);
  }

  /** A PATCH of the API as the logged-in user, as another tab of theirs would send it. */
  async patch<T>(path: string, body: Record<string, unknown>): Promise<T> {
    return this.change<T>('PATCH', path, body);
  }

  /** A POST of the API as the logged-in user (its envelope's data). */
  async post<T>(path: string, body: Record<string, unknown>): Promise<T> {
    return this.change<T>('POST', path, body);
  }

  /** A PUT of the API as the logged-in user (its envelope's data). */
  async put<T>(path: string, body: object): Promise<T> {
    return this.change<T>('PUT', path, body);
  }

  private async change<T>(
    method: 'PATCH' | 'POST' | 'PUT',
    path: string,
    body: object,
  ): Promise<T> {
    const response = await this.page.request.fetch(path, {
      method,
      data: body,
      headers: await this.csrfHeader(),
    });
    return envelopeOf<T>(response, `${method} ${path}`);
  }

  async vehicles(): Promise<ApiVehicle[]> {
    return envelopeOf(await this.page.request.get('/v2/Vehicles'), 'GET /v2/Vehicles');
  }

  /** Opens a hash route (`/dashboards`, `/login?error=session`, ...). */
  async open(route: string): Promise<void> {
    await this.page.goto(`/#${route}`);
  }

  /** The current hash route without the leading '#'. */
  route(): string {
    return new URL(this.page.url()).hash.replace(/^#/, '');
  }

  /** Logs in through the login form (the page must show it). */
  async loginWithForm(user: TestUser): Promise<void> {
    await this.page.getByTestId('login-email').fill(user.email);
    await this.page.getByTestId('login-password').fill(user.password);
    await this.page.getByTestId('login-submit').click();
  }
}

export const test = base.extend<{ app: App; consentAnswered: boolean }>({
  /** Whether the cookie banner counts as answered (declined) when the test starts. */
  consentAnswered: [true, { option: true }],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the destructuring pattern.
  baseURL: async ({}, use) => {
    await use(serverUrl());
  },
  context: async ({ context, consentAnswered }, use) => {
    // The answered banner stays away: it would cover the bottom right of every page.
    if (consentAnswered) {
      await context.addCookies([
        { name: CONSENT_ANSWERED_COOKIE, value: 'denied', url: serverUrl() },
      ]);
    }
    await use(context);
  },
  app: async ({ page }, use) => {
    await use(new App(page));
  },
});

/**
 * Waits until the hash route is `route`: a pattern matches the whole route; a path (with an optional
 * query) matches the route's path and those parameters, whatever else the query holds (an
 * analysis page adds its view to the address).
 */
export async function expectRoute(page: Page, route: string | RegExp): Promise<void> {
  const hashRoute = () => new URL(page.url()).hash.replace(/^#/, '');
  if (route instanceof RegExp) {
    await expect.poll(hashRoute, { message: 'hash route' }).toEqual(expect.stringMatching(route));
    return;
  }
  const [path, query = ''] = route.split('?');
  const wanted = [...new URLSearchParams(query).keys()];
  await expect
    .poll(
      () => {
        const [hashPath, hashQuery = ''] = hashRoute().split('?');
        const found = new URLSearchParams(hashQuery);
        const params = wanted.map((name) => `${name}=${found.get(name) ?? ''}`).join('&');
        return params ? `${hashPath}?${params}` : hashPath;
      },
      { message: 'hash route' },
    )
    .toEqual(query ? `${path}?${new URLSearchParams(query).toString()}` : path);
}

export { expect };
