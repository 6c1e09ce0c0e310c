import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n';
import { ApiFailure, failureText } from './client';

describe('failureText', () => {
  const i18n = createI18n('en');
  const de = i18n.getFixedT('de');
  const en = i18n.getFixedT('en');

  it("gives the server's own message (already in the request's language)", () => {
    const refused = new ApiFailure('x', 409, null, 'Standort hat noch 2 Fahrzeuge');
    expect(failureText(refused, de)).toBe('Standort hat noch 2 Fahrzeuge');
  });

  it('says what went wrong on the way in the user language, never English in German', () => {
    expect(failureText(new ApiFailure('network unreachable', 0, null), de)).toBe(
      'Keine Verbindung zum Server. Bitte prüfen Sie das Netzwerk und versuchen Sie es erneut.',
    );
    expect(failureText(new ApiFailure('HTTP 502', 502, null), de)).toBe(
      'Der Server antwortete mit HTTP 502. Bitte versuchen Sie es erneut.',
    );
    expect(failureText(new Error('boom'), en)).toBe(
      'The data could not be loaded. Please try again.',
    );
  });
});
