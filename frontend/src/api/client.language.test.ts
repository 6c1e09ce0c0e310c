import i18next from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { createI18n } from '../i18n';
import { chainHarness } from '../test/chainHarness';
import { fakeFetch, jsonResponse, ok } from '../test/fakeServer';
import { request } from './client';

const { reset, setup } = chainHarness();
beforeEach(reset);

function sentLanguage(fetchMock: ReturnType<typeof fakeFetch>, call: number): string | undefined {
  const headers = fetchMock.mock.calls[call]?.[1]?.headers as Record<string, string>;
  return headers['Accept-Language'];
}

describe('Accept-Language', () => {
  it('asks the server for messages in the language the user reads now', async () => {
    createI18n('de');
    const fetchMock = setup(
      fakeFetch(
        () => jsonResponse(ok(1)),
        () => jsonResponse(ok(1)),
      ),
    );
    await request('/v2/User/settings', { method: 'PATCH', body: { a: 1 } });
    await i18next.changeLanguage('en');
    await request('/v2/Vehicles');
    expect(sentLanguage(fetchMock, 0)).toBe('de');
    expect(sentLanguage(fetchMock, 1)).toBe('en');
  });

  it('sends a regional language as the supported one, on excluded routes too', async () => {
    createI18n('en');
    await i18next.changeLanguage('de-AT');
    const fetchMock = setup(fakeFetch(() => jsonResponse(ok(1))));
    await request('/v2/User/login', { method: 'POST', body: { email: 'x', password: 'y' } });
    expect(sentLanguage(fetchMock, 0)).toBe('de');
  });
});
