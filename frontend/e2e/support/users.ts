/**
 * Who the tests log in as. The server is shared by every test file and tests of different
 * files run at the same time, so a user whose saved state a test changes (onboarding flag,
 * language) belongs to exactly one file; the demo users are only read (apart from their
 * saved selectors, which no other test depends on).
 */
export type Role = 'superuser' | 'customer' | 'partner' | 'support' | 'service';

export interface TestUser {
  email: string;
  password: string;
  role: Role;
}

const DEMO_PASSWORD = 'demo';

function demo(name: string, role: Role): TestUser {
  return { email: `${name}@demo.fleetscope`, password: DEMO_PASSWORD, role };
}

export const DEMO_USERS = {
  superuser: demo('superuser', 'superuser'),
  customer: demo('customer', 'customer'),
  partner: demo('partner', 'partner'),
  support: demo('support', 'support'),
  service: demo('service', 'service'),
  /** Customer of the second organization (Alpenfracht AG). */
  customer2: demo('customer2', 'customer'),
} as const;

export const ROLES: readonly Role[] = ['superuser', 'customer', 'partner', 'support', 'service'];

/** Organization of the demo customer (and the one the demo partner is linked to). */
export const FIRST_ORGANIZATION = 'Nordlicht Logistik';
export const SECOND_ORGANIZATION = 'Alpenfracht AG';

const E2E_PASSWORD = 'e2e-password-1';

/** Users the global setup creates with `fleetscope users add`, each owned by one spec file. */
export const E2E_USERS = {
  /** onboarding.spec.ts: its onboarding flag and language are reset by every test. */
  onboarding: { email: 'onboarding@e2e.fleetscope', password: E2E_PASSWORD, role: 'customer' },
  /** language.spec.ts: switches its language. */
  language: { email: 'language@e2e.fleetscope', password: E2E_PASSWORD, role: 'customer' },
  /** statusboard.spec.ts: a customer of the Hamburg fleet watching its live statusboard. */
  live: { email: 'live@e2e.fleetscope', password: E2E_PASSWORD, role: 'customer' },
  /** analysis-selectors.spec.ts: changes and saves its period, vehicles and shift. */
  analysisSelectors: {
    email: 'analysis-selectors@e2e.fleetscope',
    password: E2E_PASSWORD,
    role: 'customer',
  },
  /** period.spec.ts: links, relative ranges and refresh; changes its saved period. */
  period: { email: 'period@e2e.fleetscope', password: E2E_PASSWORD, role: 'customer' },
  /** a11y.spec.ts: audits every page, switching its language between English and German. */
  a11y: { email: 'a11y@e2e.fleetscope', password: E2E_PASSWORD, role: 'customer' },
  /** dashboard.spec.ts: arranges its dashboard (the layout it saves). */
  dashboard: { email: 'dashboard@e2e.fleetscope', password: E2E_PASSWORD, role: 'customer' },
  /** drilldown.spec.ts: follows chart elements and tiles (its views come in the links). */
  drilldown: { email: 'drilldown@e2e.fleetscope', password: E2E_PASSWORD, role: 'customer' },
  /** A partner linked to no organization: sees no vehicle at all. */
  noVehicles: { email: 'novehicles@e2e.fleetscope', password: E2E_PASSWORD, role: 'partner' },
  /** presentation.spec.ts: reads tiles, badges and CSV files in English and German. */
  presentation: {
    email: 'presentation@e2e.fleetscope',
    password: E2E_PASSWORD,
    role: 'customer',
  },
} as const satisfies Record<string, TestUser>;

/** `fleetscope users add` arguments for each e2e user. */
export function cliArgsFor(user: TestUser): string[] {
  const organization = user.role === 'customer' ? ['--organization', FIRST_ORGANIZATION] : [];
  return [
    'users',
    'add',
    user.email,
    '--role',
    user.role,
    ...organization,
    '--password',
    user.password,
    '--language',
    'en',
  ];
}
