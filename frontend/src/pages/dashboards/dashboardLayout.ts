import {
  DASHBOARD_TILE_KEYS,
  type DashboardTileKey,
  type DashboardWidget,
} from '../../api/analytics';

/**
 * The user's dashboard layout: an ordered list of KPI widgets, saved on the server
 * (PUT /v2/User/dashboard-layout). A saved `[]` means "the default layout", so the last
 * widget cannot be removed (an empty dashboard would come back as the default anyway).
 */
export interface KpiWidget {
  id: string;
  kind: 'kpi';
  tile: DashboardTileKey;
}

export const DEFAULT_LAYOUT: readonly KpiWidget[] = DASHBOARD_TILE_KEYS.map((tile) => ({
  id: tile,
  kind: 'kpi',
  tile,
}));

function isTileKey(value: unknown): value is DashboardTileKey {
  return typeof value === 'string' && (DASHBOARD_TILE_KEYS as readonly string[]).includes(value);
}

/**
 * What the server stored, made safe to render: unknown kinds or tiles (from an older or
 * newer version) and duplicates are dropped; nothing usable left means the default.
 */
export function normalizeLayout(saved: readonly DashboardWidget[]): KpiWidget[] {
  const seen = new Set<DashboardTileKey>();
  const widgets: KpiWidget[] = [];
  for (const widget of saved) {
    const tile = widget.tile ?? widget.id;
    if (widget.kind !== 'kpi' || !isTileKey(tile) || seen.has(tile)) {
      continue;
    }
    seen.add(tile);
    widgets.push({ id: tile, kind: 'kpi', tile });
  }
  return widgets.length > 0 ? widgets : [...DEFAULT_LAYOUT];
}

/** The KPI tiles not on the dashboard yet (the "add" menu). */
export function addableTiles(layout: readonly KpiWidget[]): DashboardTileKey[] {
  const present = new Set(layout.map((widget) => widget.tile));
  return DASHBOARD_TILE_KEYS.filter((tile) => !present.has(tile));
}

export function addWidget(layout: readonly KpiWidget[], tile: DashboardTileKey): KpiWidget[] {
  if (layout.some((widget) => widget.tile === tile)) {
    return [...layout];
  }
  return [...layout, { id: tile, kind: 'kpi', tile }];
}

export function canRemove(layout: readonly KpiWidget[]): boolean {
  return layout.length > 1;
}

export function removeWidget(layout: readonly KpiWidget[], id: string): KpiWidget[] {
  if (!canRemove(layout)) {
    return [...layout];
  }
  return layout.filter((widget) => widget.id !== id);
}

/** Moves a widget one place up (-1) or down (+1); at either end nothing changes. */
export function moveWidget(layout: readonly KpiWidget[], id: string, step: -1 | 1): KpiWidget[] {
  const from = layout.findIndex((widget) => widget.id === id);
  const to = from + step;
  if (from < 0 || to < 0 || to >= layout.length) {
    return [...layout];
  }
  const next = [...layout];
  const [moved] = next.splice(from, 1);
  if (moved) {
    next.splice(to, 0, moved);
  }
  return next;
}

/** Moves a widget to another widget's place (drag and drop). */
export function moveWidgetTo(
  layout: readonly KpiWidget[],
  id: string,
  targetId: string,
): KpiWidget[] {
  const from = layout.findIndex((widget) => widget.id === id);
  const to = layout.findIndex((widget) => widget.id === targetId);
  if (from < 0 || to < 0 || from === to) {
    return [...layout];
  }
  const next = [...layout];
  const [moved] = next.splice(from, 1);
  if (moved) {
    next.splice(to, 0, moved);
  }
  return next;
}

export function isDefaultLayout(layout: readonly KpiWidget[]): boolean {
  return (
    layout.length === DEFAULT_LAYOUT.length &&
    layout.every((widget, index) => widget.tile === DEFAULT_LAYOUT[index]?.tile)
  );
}

/** The body of the PUT: the default layout is stored as `[]`, so later defaults apply. */
export function layoutToSave(layout: readonly KpiWidget[]): DashboardWidget[] {
  return isDefaultLayout(layout) ? [] : layout.map((widget) => ({ ...widget }));
}
