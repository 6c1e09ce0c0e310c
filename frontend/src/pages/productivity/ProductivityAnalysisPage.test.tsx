import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoUser } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

afterEach(() => {
  vi.unstubAllGlobals();
});

// Not the default second: the lazy pages load slowly on two busy cores.
const SLOW = { timeout: 10_000 };
const WEEK_S = 604_800;

/** The fake API's productivity answer (nothing in it), as if the vehicles reported `reported_s`. */
function reporting(reportedS: number) {
  return (fetch: typeof globalThis.fetch) =>
    async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const response = await fetch(input, init);
      if (!String(input).startsWith('/v2/Analytics/Productivity?')) {
        return response;
      }
      const answer = await response.json();
      answer.data.fleet.kpis.periodSeconds = WEEK_S;
      answer.data.fleet.kpis.noDataSeconds = WEEK_S - reportedS;
      return new Response(JSON.stringify(answer), { headers: response.headers });
    };
}

describe('an empty chart says why', () => {
  it('nothing happened, where the vehicles reported in the period', async () => {
    renderApp('/productivity/analysis', { user: demoUser('customer') }, 'en', {
      throughFetch: reporting(WEEK_S),
    });
    // The card is drawn again once the answer is in: found anew each time.
    const heatmap = () => screen.getByTestId('chart-ordersHeatmap');
    await waitFor(
      () => expect(within(heatmap()).getByText('Nothing happened')).toBeVisible(),
      SLOW,
    );
    expect(heatmap()).toHaveAttribute('data-status', 'empty');
  });

  it('no data, where they sent none in the period', async () => {
    renderApp('/productivity/analysis', { user: demoUser('customer', 'de') }, 'de', {
      throughFetch: reporting(0),
    });
    const heatmap = () => screen.getByTestId('chart-ordersHeatmap');
    await waitFor(
      () => expect(within(heatmap()).getByText('Keine Daten in diesem Zeitraum')).toBeVisible(),
      SLOW,
    );
    // The tiles say so too, with no count of zero and no comparison.
    const tiles = screen.getByTestId('kpi-tiles');
    await waitFor(() =>
      expect(within(tiles).getAllByText('keine Daten').length).toBeGreaterThan(0),
    );
    for (const name of ['availability', 'orders', 'distance']) {
      expect(within(tiles).getByTestId(`kpi-${name}`)).toHaveTextContent('keine Daten');
    }
  });
});
