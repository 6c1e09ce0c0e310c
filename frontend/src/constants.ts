/** Business constants and limits of spec section 9, in one place. */

/** Request response cache lifetime: 3 minutes. */
export const CACHE_TTL_MS = 3 * 60 * 1000;

/**
 * Routes and patterns skipped by the cache and the error handling of the request chain.
 * Login and logout manage the session themselves; the password dialog and the
 * Administration app show their failures themselves (at the form field or in a toast, not
 * in the error overlay), read what is stored now, and apply the session rule themselves
 * (`followSessionRule`); analytics events must never surface errors to the user; and live
 * streams are long-lived and never cacheable.
 */
export const EXCLUDED_ROUTE_PATTERNS: readonly RegExp[] = [
  /^\/v2\/User\/login(?:[/?]|$)/,
  /^\/v2\/User\/logout(?:[/?]|$)/,
  /^\/v2\/User\/password(?:[/?]|$)/,
  /^\/v2\/Admin(?:[/?]|$)/,
  /^\/v2\/Events(?:[/?]|$)/,
  /^\/v2\/Live(?:[/?]|$)/,
  /\/stream(?:[/?]|$)/i,
];

/** The longest period the analytics answer (days): the server's limit, kept by the picker and links. */
export const MAX_PERIOD_DAYS = 400;

/** The shortest password the server accepts (checked in the form before asking it). */
export const MIN_PASSWORD_LENGTH = 8;

/** The server message that means the session is gone (product.md section 5). */
export const AUTHENTICATION_FAILED_MESSAGE = 'authentication failed';

/** The application name carried by every error object. */
export const APPLICATION_NAME = 'analytics';

/** Layout. */
export const MAX_CONTENT_WIDTH_PX = 1920;
export const SIDE_NAV_WIDTH = '4.25rem';
export const DESKTOP_BREAKPOINT_PX = 1024;

/** Error reporting (production only, and only when a DSN is configured). */
export const SENTRY_REPLAYS_SESSION_SAMPLE_RATE = 0.1;
export const SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE = 1.0;
export const SENTRY_TRACES_SAMPLE_RATE = 0.5;

/** Onboarding. */
export const ONBOARDING_SLIDE_COUNT = 5;
export const ONBOARDING_IMAGE_MAX_HEIGHT_PX = 320;

/** Cookie set by the consent control; page-view events are sent only when it is present. */
export const STATISTICS_COOKIE = 'fleetscope_statistics';
/** Remembers that the user answered the consent banner (either way). */
export const CONSENT_ANSWERED_COOKIE = 'fleetscope_consent';
export const CONSENT_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** Readable cookie the server sets at login; its value goes into the CSRF header. */
export const CSRF_COOKIE = 'fleetscope_csrf';
export const CSRF_HEADER = 'X-CSRF-Token';

export const SUPPORTED_LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
