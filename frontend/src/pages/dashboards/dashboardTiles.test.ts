import { describe, expect, it } from 'vitest';
import type { DashboardTile } from '../../api/analytics';
import { testContext } from '../../test/chartContext';
import { dashboardTileModel } from './dashboardTiles';

function tile(overrides: Partial<DashboardTile>): DashboardTile {
  return {
    key: 'availability',
    unit: 'share',
    value: 0.96,
    previous: 0.95,
    higherIsBetter: true,
    series: [
      { from: '2026-11-19', value: 0.97 },
      { from: '2026-11-20', value: null },
      { from: '2026-11-21', value: 0.95 },
    ],
    ...overrides,
  };
}

describe('dashboardTileModel', () => {
  it('formats a share with its trend and a sparkline with gaps', () => {
    const model = dashboardTileModel(tile({}), 'day', testContext('de'));
    expect(model.value).toBe('96,0\u00a0%');
    expect(model.trend).toMatchObject({ direction: 'up', good: true });
    expect(model.deltaText).toBe('+1,0 productivity.points');
    expect(model.sparkline).toEqual({
      labels: ['19.11.2026', '20.11.2026', '21.11.2026'],
      values: [0.97, null, 0.95],
      texts: ['97,0\u00a0%', 'charts.noValue', '95,0\u00a0%'],
      partial: [false, false, false],
      color: '#059683',
    });
  });

  it('marks the running bucket of a sparkline as so far', () => {
    const model = dashboardTileModel(
      tile({
        series: [
          { from: '2026-11-24', value: 0.97, partial: false },
          { from: '2026-11-25', value: 0.5, partial: true },
        ],
      }),
      'day',
      testContext('de'),
    );
    expect(model.sparkline?.labels).toEqual(['24.11.2026', '25.11.2026 (charts.soFar)']);
    expect(model.sparkline?.partial).toEqual([false, true]);
    expect(model.sparkline?.values).toEqual([0.97, 0.5]);
  });

  it('colours a rise of a lower-is-better KPI as bad', () => {
    const model = dashboardTileModel(
      tile({ key: 'mttr', unit: 'seconds', value: 600, previous: 300, higherIsBetter: false }),
      'day',
      testContext('en'),
    );
    expect(model.value).toBe('10 min');
    expect(model.trend).toMatchObject({ direction: 'up', good: false });
    expect(model.deltaText).toBe('+5 min');
  });

  it('shows no data without a trend and no sparkline for one bucket', () => {
    const model = dashboardTileModel(
      tile({
        key: 'mtbf',
        unit: 'seconds',
        value: null,
        series: [{ from: '2026-11-21', value: null }],
      }),
      'day',
      testContext(),
    );
    expect(model.value).toBe('charts.noValue');
    expect(model.trend).toBeNull();
    expect(model.sparkline).toBeNull();
  });

  it('reads "no data" for a count of a period the vehicles sent nothing in, as for a ratio', () => {
    const orders = tile({
      key: 'orders',
      unit: 'count',
      value: 0,
      previous: null,
      series: [
        { from: '2024-03-04', value: 0 },
        { from: '2024-03-05', value: 0 },
      ],
    });
    expect(dashboardTileModel(orders, 'day', testContext()).value).toBe('0');
    const empty = dashboardTileModel(orders, 'day', testContext(), { periodWithoutData: true });
    expect(empty).toMatchObject({ value: 'charts.noValue', trend: null, sparkline: null });
  });

  it('shows no comparison where the API has no previous value (nothing recorded then)', () => {
    const orders = dashboardTileModel(
      tile({ key: 'orders', unit: 'count', value: 4122, previous: null, higherIsBetter: true }),
      'day',
      testContext(),
    );
    expect(orders.trend).toBeNull();
    expect(orders.previousText).toBe('charts.noValue');
  });

  it('marks a cycle-time median from a histogram with ≈, its sparkline (short buckets) plain', () => {
    const median = tile({
      key: 'cycleTimeP50',
      unit: 'seconds',
      value: 240,
      previous: 250,
      higherIsBetter: false,
      exact: false,
      series: [
        { from: '2026-01-01', value: 245 },
        { from: '2026-02-01', value: null },
      ],
    });
    const model = dashboardTileModel(median, 'month', testContext('de'));
    expect(model.approximate).toBe(true);
    expect(model.value).toBe('≈ 4 min');
    expect(model.previousText).toBe('≈ 4 min 10 s');
    expect(model.deltaText).toBe('−10 s');
    expect(model.sparkline?.texts).toEqual(['4 min 05 s', 'charts.noValue']);
    const noData = dashboardTileModel({ ...median, value: null }, 'month', testContext());
    expect(noData.value).toBe('charts.noValue');
  });

  it('keeps an exact or unflagged tile plain', () => {
    for (const exact of [true, undefined]) {
      const model = dashboardTileModel(
        tile({ key: 'cycleTimeP50', unit: 'seconds', value: 240, previous: 250, exact }),
        'day',
        testContext(),
      );
      expect(model.approximate).toBe(false);
      expect(model.value).toBe('4 min');
      expect(model.previousText).toBe('4 min 10 s');
    }
  });
});
