import {
  SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE,
  SENTRY_REPLAYS_SESSION_SAMPLE_RATE,
  SENTRY_TRACES_SAMPLE_RATE,
} from '../constants';

/** Error reporting runs only in production and only with a DSN (spec section 9). */
export function errorReportingEnabled({
  production,
  dsn,
}: {
  production: boolean;
  dsn: string | undefined;
}): boolean {
  return production && typeof dsn === 'string' && dsn.trim() !== '';
}

export function sentryOptions(dsn: string) {
  return {
    dsn,
    replaysSessionSampleRate: SENTRY_REPLAYS_SESSION_SAMPLE_RATE,
    replaysOnErrorSampleRate: SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE,
    tracesSampleRate: SENTRY_TRACES_SAMPLE_RATE,
    initialScope: { tags: { application: 'analytics' } },
  };
}

/** Sentry is imported dynamically, so builds without a DSN never download it. */
export async function startErrorReporting(): Promise<void> {
  const dsn = import.meta.env.VITE_SENTRY_DSN;
  if (!errorReportingEnabled({ production: import.meta.env.PROD, dsn }) || !dsn) {
    return;
  }
  const Sentry = await import('@sentry/react');
  Sentry.init({
    ...sentryOptions(dsn),
    integrations: [Sentry.browserTracingIntegration(), Sentry.replayIntegration()],
  });
}
