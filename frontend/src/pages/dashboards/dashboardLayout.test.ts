import { describe, expect, it } from 'vitest';
import {
  addableTiles,
  addWidget,
  canRemove,
  DEFAULT_LAYOUT,
  layoutToSave,
  moveWidget,
  moveWidgetTo,
  normalizeLayout,
  removeWidget,
} from './dashboardLayout';

const tiles = (layout: ReadonlyArray<{ tile: string }>) => layout.map((widget) => widget.tile);

describe('dashboard layout', () => {
  it('uses the default for an empty or unusable saved layout', () => {
    expect(tiles(normalizeLayout([]))).toEqual(tiles(DEFAULT_LAYOUT));
    expect(tiles(normalizeLayout([{ id: 'x', kind: 'weather' }]))).toEqual(tiles(DEFAULT_LAYOUT));
  });

  it('keeps the saved order and drops unknown and duplicate widgets', () => {
    const layout = normalizeLayout([
      { id: 'mttr', kind: 'kpi', tile: 'mttr' },
      { id: 'gone', kind: 'kpi', tile: 'noSuchKpi' },
      { id: 'orders', kind: 'kpi' },
      { id: 'mttr', kind: 'kpi', tile: 'mttr' },
      { id: 'chart', kind: 'futureChart' },
    ]);
    expect(tiles(layout)).toEqual(['mttr', 'orders']);
  });

  it('adds only missing tiles, at the end', () => {
    const layout = normalizeLayout([{ id: 'orders', kind: 'kpi' }]);
    expect(addableTiles(layout)).not.toContain('orders');
    expect(addableTiles(layout)).toHaveLength(8);
    expect(tiles(addWidget(layout, 'mtbf'))).toEqual(['orders', 'mtbf']);
    expect(tiles(addWidget(layout, 'orders'))).toEqual(['orders']);
    expect(addableTiles(DEFAULT_LAYOUT)).toEqual([]);
  });

  it('removes widgets but never the last one', () => {
    const two = normalizeLayout([
      { id: 'orders', kind: 'kpi' },
      { id: 'errors', kind: 'kpi' },
    ]);
    const one = removeWidget(two, 'orders');
    expect(tiles(one)).toEqual(['errors']);
    expect(canRemove(one)).toBe(false);
    expect(tiles(removeWidget(one, 'errors'))).toEqual(['errors']);
  });

  it('moves widgets up and down, not past the ends', () => {
    const layout = DEFAULT_LAYOUT;
    expect(tiles(moveWidget(layout, 'utilization', -1)).slice(0, 2)).toEqual([
      'utilization',
      'availability',
    ]);
    expect(tiles(moveWidget(layout, 'availability', -1))).toEqual(tiles(layout));
    expect(tiles(moveWidget(layout, 'meanCharge', 1))).toEqual(tiles(layout));
    expect(tiles(moveWidget(layout, 'availability', 1)).slice(0, 2)).toEqual([
      'utilization',
      'availability',
    ]);
  });

  it('moves a dragged widget to the drop target', () => {
    expect(tiles(moveWidgetTo(DEFAULT_LAYOUT, 'meanCharge', 'availability')).slice(0, 2)).toEqual([
      'meanCharge',
      'availability',
    ]);
    expect(tiles(moveWidgetTo(DEFAULT_LAYOUT, 'availability', 'utilization')).slice(0, 2)).toEqual([
      'utilization',
      'availability',
    ]);
  });

  it('saves the default as [] and anything else as the list', () => {
    expect(layoutToSave(DEFAULT_LAYOUT)).toEqual([]);
    const custom = moveWidget(DEFAULT_LAYOUT, 'orders', -1);
    expect(layoutToSave(custom)).toHaveLength(9);
    expect(layoutToSave(custom)[2]).toEqual({ id: 'orders', kind: 'kpi', tile: 'orders' });
  });
});
