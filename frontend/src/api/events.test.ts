import { beforeEach, describe, expect, it } from 'vitest';
import { fakeFetch, jsonResponse } from '../test/fakeServer';
import { clearResponseCache, configureRequestChain } from './client';
import { pageViewEvent, sendPageView } from './events';

describe('page analytics event', () => {
  beforeEach(clearResponseCache);

  it('carries the user role, the page path and the event page_view', () => {
    expect(pageViewEvent({ path: '/battery', role: 'partner' })).toEqual({
      event: 'page_view',
      path: '/battery',
      role: 'partner',
    });
  });

  it('is posted to /v2/Events and never surfaces a failure', async () => {
    const reported: unknown[] = [];
    const fetchMock = fakeFetch(() =>
      jsonResponse({ status: false, msg: 'authentication failed', data: null }, 401),
    );
    configureRequestChain({
      fetch: fetchMock as unknown as typeof fetch,
      reportError: (error) => reported.push(error),
    });
    await sendPageView({ path: '/failures/history', role: 'customer' });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/v2/Events');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      event: 'page_view',
      path: '/failures/history',
      role: 'customer',
    });
    expect(reported).toEqual([]);
  });
});
