import { describe, expect, it } from 'vitest';
import { errorReportingEnabled, sentryOptions } from './errorReporting';

describe('error reporting', () => {
  it('runs only in production with a DSN', () => {
    expect(errorReportingEnabled({ production: true, dsn: 'https://k@o.ingest/1' })).toBe(true);
    expect(errorReportingEnabled({ production: false, dsn: 'https://k@o.ingest/1' })).toBe(false);
    expect(errorReportingEnabled({ production: true, dsn: undefined })).toBe(false);
    expect(errorReportingEnabled({ production: true, dsn: ' ' })).toBe(false);
  });

  it('uses the sample rates of spec section 9', () => {
    expect(sentryOptions('dsn')).toMatchObject({
      replaysSessionSampleRate: 0.1,
      replaysOnErrorSampleRate: 1,
      tracesSampleRate: 0.5,
    });
  });
});
