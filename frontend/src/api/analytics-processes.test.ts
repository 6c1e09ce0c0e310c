import { afterEach, describe, expect, it } from 'vitest';
import { chainHarness } from '../test/chainHarness';
import { fakeFetch, jsonResponse, ok } from '../test/fakeServer';
import { loadBattery } from './analytics-battery';
import { errorHistoryCsvUrl, loadErrorHistory } from './analytics-failures';
import { type AnalysisScope, analyticsQuery, loadWorkflowOrders } from './analytics-processes';
import type { Vehicle } from './types';

const vehicle = (id: number) => ({ id, name: `AGV ${id}` }) as Vehicle;
const scope: AnalysisScope = {
  from: '2026-11-19',
  to: '2026-11-21',
  vehicles: [vehicle(3), vehicle(5)],
  combined: false,
  shift: 'all',
};

describe('analytics query strings', () => {
  it('sends period, vehicles, combined and shift, plus the non-empty extras', () => {
    expect(analyticsQuery(scope, { page: 2, sort: '-start', level: [], errorType: '' })).toBe(
      '?from=2026-11-19&to=2026-11-21&vehicles=3%2C5&combined=false&shift=all&page=2&sort=-start',
    );
    expect(analyticsQuery({ ...scope, vehicles: [], combined: true, shift: 7 })).toBe(
      '?from=2026-11-19&to=2026-11-21&combined=true&shift=7',
    );
  });

  it('sends a rolling period as hours instead of the days', () => {
    expect(analyticsQuery({ ...scope, hours: 24 }, { page: 1 })).toBe(
      '?hours=24&vehicles=3%2C5&combined=false&shift=all&page=1',
    );
    expect(analyticsQuery({ ...scope, hours: null })).toContain('?from=2026-11-19&to=2026-11-21');
  });

  it('builds the CSV url with the same filters and sort as the list, without paging', () => {
    const url = errorHistoryCsvUrl(scope, {
      page: 4,
      pageSize: 25,
      sort: 'level',
      errorType: 'e stop',
      levels: ['CRITICAL', 'FATAL'],
      vehicle: 5,
    });
    // Several levels: the parameter once for each (any of them).
    expect(url).toBe(
      '/v2/Analytics/ErrorHistory.csv?from=2026-11-19&to=2026-11-21&vehicles=3%2C5&combined=false&shift=all&errorType=e+stop&level=CRITICAL&level=FATAL&vehicle=5&sort=level',
    );
  });
});

describe('analytics calls through the request chain', () => {
  const harness = chainHarness();
  afterEach(() => harness.reset());

  it('unwraps a page of the error history', async () => {
    const page = { items: [], total: 0, page: 1, pageSize: 50, pages: 0, sort: '-start' };
    const fetchMock = harness.setup(fakeFetch(() => jsonResponse(ok(page))));
    const result = await loadErrorHistory(scope, {
      page: 1,
      pageSize: 50,
      sort: null,
      errorType: null,
      levels: ['WARNING'],
      vehicle: null,
    });
    expect(result).toEqual(page);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe(
      '/v2/Analytics/ErrorHistory?from=2026-11-19&to=2026-11-21&vehicles=3%2C5&combined=false&shift=all&level=WARNING&page=1&pageSize=50',
    );
  });

  it('escapes the workflow name in the drill-down path', async () => {
    const fetchMock = harness.setup(fakeFetch(() => jsonResponse(ok({ items: [] }))));
    await loadWorkflowOrders(scope, 'A/B 1', {
      page: 1,
      pageSize: 25,
      sort: null,
      outcome: 'failed',
    });
    expect(String(fetchMock.mock.calls[0]?.[0])).toMatch(
      /^\/v2\/Analytics\/Workflows\/A%2FB%201\/Orders\?.*&page=1&pageSize=25&outcome=failed$/,
    );
  });

  it('turns a server refusal into a failure the page can show', async () => {
    harness.setup(
      fakeFetch(() => jsonResponse({ status: false, msg: 'period too long', data: null }, 422)),
    );
    await expect(loadBattery(scope)).rejects.toThrow('period too long');
  });
});
