import { describe, expect, it } from 'vitest';
import {
  addableWidgets,
  addWidget,
  canRemove,
  choiceOf,
  DASHBOARD_CHART_KEYS,
  DEFAULT_LAYOUT,
  layoutToSave,
  moveWidget,
  moveWidgetTo,
  normalizeLayout,
  removeWidget,
  type Widget,
} from './dashboardLayout';

const ids = (layout: readonly Widget[]) => layout.map((widget) => widget.id);
const TILES = [
  'availability',
  'utilization',
  'throughput',
  'orders',
  'cycleTimeP50',
  'mtbf',
  'mttr',
  'errors',
  'meanCharge',
];

describe('dashboard layout', () => {
  it('is every tile by default; charts are added', () => {
    expect(ids(DEFAULT_LAYOUT)).toEqual(TILES);
    expect(DEFAULT_LAYOUT[0]).toEqual({ id: 'availability', kind: 'kpi', tile: 'availability' });
  });

  it('uses the default for an empty or unusable saved layout', () => {
    expect(ids(normalizeLayout([]))).toEqual(ids(DEFAULT_LAYOUT));
    expect(ids(normalizeLayout([{ id: 'x', kind: 'weather' }]))).toEqual(ids(DEFAULT_LAYOUT));
  });

  it('keeps the saved order and drops unknown and duplicate widgets', () => {
    const layout = normalizeLayout([
      { id: 'mttr', kind: 'kpi', tile: 'mttr' },
      { id: 'gone', kind: 'kpi', tile: 'noSuchKpi' },
      { id: 'chart-charge', kind: 'chart', chart: 'charge' },
      { id: 'orders', kind: 'kpi' },
      { id: 'mttr', kind: 'kpi', tile: 'mttr' },
      { id: 'chart-x', kind: 'chart', chart: 'futureChart' },
      { id: 'chart-charge', kind: 'chart', chart: 'charge' },
      { id: 'chart', kind: 'futureKind' },
    ]);
    expect(ids(layout)).toEqual(['mttr', 'chart-charge', 'orders']);
    expect(layout[1]).toEqual({ id: 'chart-charge', kind: 'chart', chart: 'charge' });
  });

  it('adds only missing tiles and charts, at the end', () => {
    const layout = normalizeLayout([
      { id: 'orders', kind: 'kpi' },
      { id: 'chart-outcomes', kind: 'chart', chart: 'outcomes' },
    ]);
    const addable = addableWidgets(layout);
    expect(addable).toHaveLength(TILES.length - 1 + DASHBOARD_CHART_KEYS.length - 1);
    expect(addable).not.toContainEqual({ kind: 'kpi', key: 'orders' });
    expect(addable).not.toContainEqual({ kind: 'chart', key: 'outcomes' });
    // Tiles first, then charts.
    expect(addable[0]).toEqual({ kind: 'kpi', key: 'availability' });
    expect(addable.at(-1)).toEqual({ kind: 'chart', key: 'charge' });
    expect(ids(addWidget(layout, { kind: 'kpi', key: 'mtbf' }))).toEqual([
      'orders',
      'chart-outcomes',
      'mtbf',
    ]);
    expect(ids(addWidget(layout, { kind: 'chart', key: 'ordersHeatmap' })).at(-1)).toBe(
      'chart-ordersHeatmap',
    );
    expect(ids(addWidget(layout, { kind: 'chart', key: 'outcomes' }))).toEqual(ids(layout));
    // A widget tells what it shows, as the menu offered it.
    expect(layout.map(choiceOf)).toEqual([
      { kind: 'kpi', key: 'orders' },
      { kind: 'chart', key: 'outcomes' },
    ]);
    expect(addableWidgets(DEFAULT_LAYOUT)).toEqual(
      DASHBOARD_CHART_KEYS.map((key) => ({ kind: 'chart', key })),
    );
  });

  it('removes widgets but never the last one', () => {
    const two = normalizeLayout([
      { id: 'orders', kind: 'kpi' },
      { id: 'chart-charge', kind: 'chart', chart: 'charge' },
    ]);
    const one = removeWidget(two, 'orders');
    expect(ids(one)).toEqual(['chart-charge']);
    expect(canRemove(one)).toBe(false);
    expect(ids(removeWidget(one, 'chart-charge'))).toEqual(['chart-charge']);
  });

  it('moves widgets up and down, not past the ends', () => {
    const layout = addWidget(DEFAULT_LAYOUT, { kind: 'chart', key: 'outcomes' });
    expect(ids(moveWidget(layout, 'utilization', -1)).slice(0, 2)).toEqual([
      'utilization',
      'availability',
    ]);
    expect(ids(moveWidget(layout, 'availability', -1))).toEqual(ids(layout));
    expect(ids(moveWidget(layout, 'chart-outcomes', 1))).toEqual(ids(layout));
    expect(ids(moveWidget(layout, 'chart-outcomes', -1)).slice(8, 10)).toEqual([
      'chart-outcomes',
      'meanCharge',
    ]);
  });

  it('moves a dragged widget to the drop target', () => {
    const layout = addWidget(DEFAULT_LAYOUT, { kind: 'chart', key: 'outcomes' });
    expect(ids(moveWidgetTo(layout, 'chart-outcomes', 'availability')).slice(0, 2)).toEqual([
      'chart-outcomes',
      'availability',
    ]);
    expect(ids(moveWidgetTo(layout, 'availability', 'utilization')).slice(0, 2)).toEqual([
      'utilization',
      'availability',
    ]);
    expect(ids(moveWidgetTo(layout, 'availability', 'gone'))).toEqual(ids(layout));
  });

  it('saves the default as [] and anything else as the list', () => {
    expect(layoutToSave(DEFAULT_LAYOUT)).toEqual([]);
    const custom = moveWidget(DEFAULT_LAYOUT, 'orders', -1);
    expect(layoutToSave(custom)).toHaveLength(DEFAULT_LAYOUT.length);
    expect(layoutToSave(custom)[2]).toEqual({ id: 'orders', kind: 'kpi', tile: 'orders' });
    const withChart = addWidget(DEFAULT_LAYOUT, { kind: 'chart', key: 'errorPareto' });
    const saved = layoutToSave(withChart);
    expect(saved.at(-1)).toEqual({ id: 'chart-errorPareto', kind: 'chart', chart: 'errorPareto' });
    // What is saved reads back as the same layout.
    expect(normalizeLayout(saved)).toEqual(withChart);
  });
});
