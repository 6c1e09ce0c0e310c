import {
  DASHBOARD_TILE_KEYS,
  type DashboardTileKey,
  type DashboardWidget,
} from '../../api/analytics';

/**
 * The user's dashboard layout: an ordered list of widgets, KPI tiles and small charts of
 * the analysis pages, saved on the server (PUT /v2/User/dashboard-layout). A saved `[]`
 * means "the default layout", so the last widget cannot be removed (an empty dashboard
 * would come back as the default anyway).
 */
export interface KpiWidget {
  id: string;
  kind: 'kpi';
  tile: DashboardTileKey;
}

/**
 * The small charts a dashboard can hold: the fleet's states now (live, as on the statusboard)
 * and charts of the analysis pages.
 */
export const DASHBOARD_CHART_KEYS = [
  'fleetNow',
  'timeInState',
  'outcomes',
  'errorPareto',
  'ordersHeatmap',
  'charge',
] as const;
export type DashboardChartKey = (typeof DASHBOARD_CHART_KEYS)[number];

/** Each chart's title: its page's (the menu names it before its module is loaded). */
export const DASHBOARD_CHART_TITLES: Record<DashboardChartKey, string> = {
  fleetNow: 'dashboard.fleetNow',
  timeInState: 'productivity.charts.timeInState',
  outcomes: 'processes.outcomes',
  errorPareto: 'failures.paretoByCount',
  ordersHeatmap: 'productivity.charts.ordersHeatmap',
  charge: 'battery.chargeOverTime',
};

export interface ChartWidget {
  id: string;
  kind: 'chart';
  chart: DashboardChartKey;
}

export type Widget = KpiWidget | ChartWidget;

/** One entry of the "add" menu. */
export type WidgetChoice =
  | { kind: 'kpi'; key: DashboardTileKey }
  | { kind: 'chart'; key: DashboardChartKey };

const kpiWidget = (tile: DashboardTileKey): KpiWidget => ({ id: tile, kind: 'kpi', tile });
// Chart ids have a prefix: a chart and a tile never share one.
const chartWidget = (chart: DashboardChartKey): ChartWidget => ({
  id: `chart-${chart}`,
  kind: 'chart',
  chart,
});

/** What a widget shows: its kind and its tile's or chart's key. */
export function choiceOf(widget: Widget): WidgetChoice {
  return widget.kind === 'kpi'
    ? { kind: 'kpi', key: widget.tile }
    : { kind: 'chart', key: widget.chart };
}

function widgetOf(choice: WidgetChoice): Widget {
  return choice.kind === 'kpi' ? kpiWidget(choice.key) : chartWidget(choice.key);
}

/**
 * Every tile. Charts are added by the user: they load the charting library, which the
 * first view of the dashboard does without (docs: delivery until the dashboard is usable).
 */
export const DEFAULT_LAYOUT: readonly Widget[] = DASHBOARD_TILE_KEYS.map(kpiWidget);

function isTileKey(value: unknown): value is DashboardTileKey {
  return typeof value === 'string' && (DASHBOARD_TILE_KEYS as readonly string[]).includes(value);
}

function isChartKey(value: unknown): value is DashboardChartKey {
  return typeof value === 'string' && (DASHBOARD_CHART_KEYS as readonly string[]).includes(value);
}

/** A saved widget this version can show, or null (from an older or newer version). */
function knownWidget(saved: DashboardWidget): Widget | null {
  if (saved.kind === 'kpi') {
    const tile = saved.tile ?? saved.id;
    return isTileKey(tile) ? kpiWidget(tile) : null;
  }
  if (saved.kind === 'chart') {
    return isChartKey(saved.chart) ? chartWidget(saved.chart) : null;
  }
  return null;
}

/**
 * What the server stored, made safe to render: unknown kinds, tiles or charts and
 * duplicates are dropped; nothing usable left means the default.
 */
export function normalizeLayout(saved: readonly DashboardWidget[]): Widget[] {
  const widgets = new Map<string, Widget>();
  for (const entry of saved) {
    const widget = knownWidget(entry);
    if (widget && !widgets.has(widget.id)) {
      widgets.set(widget.id, widget);
    }
  }
  return widgets.size > 0 ? [...widgets.values()] : [...DEFAULT_LAYOUT];
}

/** The tiles and charts not on the dashboard yet (the "add" menu), tiles first. */
export function addableWidgets(layout: readonly Widget[]): WidgetChoice[] {
  const present = new Set(layout.map((widget) => widget.id));
  const choices: WidgetChoice[] = [
    ...DASHBOARD_TILE_KEYS.map((key) => ({ kind: 'kpi' as const, key })),
    ...DASHBOARD_CHART_KEYS.map((key) => ({ kind: 'chart' as const, key })),
  ];
  return choices.filter((choice) => !present.has(widgetOf(choice).id));
}

export function addWidget(layout: readonly Widget[], choice: WidgetChoice): Widget[] {
  const widget = widgetOf(choice);
  if (layout.some((present) => present.id === widget.id)) {
    return [...layout];
  }
  return [...layout, widget];
}

export function canRemove(layout: readonly Widget[]): boolean {
  return layout.length > 1;
}

export function removeWidget(layout: readonly Widget[], id: string): Widget[] {
  if (!canRemove(layout)) {
    return [...layout];
  }
  return layout.filter((widget) => widget.id !== id);
}

/** Moves a widget one place up (-1) or down (+1); at either end nothing changes. */
export function moveWidget(layout: readonly Widget[], id: string, step: -1 | 1): Widget[] {
  const from = layout.findIndex((widget) => widget.id === id);
  return moveFromTo(layout, from, from + step);
}

/** Moves a widget to another widget's place (drag and drop). */
export function moveWidgetTo(layout: readonly Widget[], id: string, targetId: string): Widget[] {
  const from = layout.findIndex((widget) => widget.id === id);
  const to = layout.findIndex((widget) => widget.id === targetId);
  return moveFromTo(layout, from, to);
}

function moveFromTo(layout: readonly Widget[], from: number, to: number): Widget[] {
  const next = [...layout];
  if (from < 0 || to < 0 || to >= layout.length || from === to) {
    return next;
  }
  const [moved] = next.splice(from, 1);
  if (moved) {
    next.splice(to, 0, moved);
  }
  return next;
}

export function isDefaultLayout(layout: readonly Widget[]): boolean {
  return (
    layout.length === DEFAULT_LAYOUT.length &&
    layout.every((widget, index) => widget.id === DEFAULT_LAYOUT[index]?.id)
  );
}

/** The body of the PUT: the default layout is stored as `[]`, so later defaults apply. */
export function layoutToSave(layout: readonly Widget[]): DashboardWidget[] {
  return isDefaultLayout(layout) ? [] : layout.map((widget) => ({ ...widget }));
}
