import { beforeEach, describe, expect, it } from 'vitest';
import { shouldSendPageView } from '../api/events';
import { consentState, recordConsent } from './consent';

function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) {
      // biome-ignore lint/suspicious/noDocumentCookie: test cleanup
      document.cookie = `${name}=; Max-Age=0; Path=/`;
    }
  }
}

describe('statistics consent', () => {
  beforeEach(clearCookies);

  it('starts unanswered, then records granting and withdrawing', () => {
    expect(consentState(document.cookie)).toBe('unanswered');
    recordConsent(true);
    expect(consentState(document.cookie)).toBe('granted');
    recordConsent(false);
    expect(consentState(document.cookie)).toBe('denied');
  });

  it('page views are sent only with the statistics cookie and in production', () => {
    expect(shouldSendPageView({ cookies: document.cookie, production: true })).toBe(false);
    recordConsent(true);
    expect(shouldSendPageView({ cookies: document.cookie, production: true })).toBe(true);
    expect(shouldSendPageView({ cookies: document.cookie, production: false })).toBe(false);
  });
});
