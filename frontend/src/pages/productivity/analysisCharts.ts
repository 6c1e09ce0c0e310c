import type { Productivity, ProductivityEntry } from '../../api/analytics';
import {
  axisStyle,
  barCartesian,
  type ChartContext,
  type ChartModel,
  formatKpiDelta,
  formatKpiValue,
  formatValue,
  STATE_COLORS,
  type Trend,
  trendOf,
  VEHICLE_STATES,
} from '../../components/charts';
import { entryName, narrowLabels } from '../../components/charts/chartParts';
import { comparableFigures } from '../../components/charts/kpiTexts';
import { weekdayNames } from '../../lib/format';
import { PRODUCTIVITY_KPIS, type ProductivityKpiKey } from './kpis';

/** The label of an entry: the vehicle's name, or "selected machines" for the combined one. */
export function entryLabel(entry: ProductivityEntry, ctx: ChartContext): string {
  return entryName(entry.name, ctx);
}

/** True when the selection has no recorded time at all (nothing to draw). */
export function hasNoData(data: Productivity): boolean {
  const states = data.fleet.states;
  return (
    VEHICLE_STATES.every((state) => states[state] === 0) && data.fleet.kpis.ordersFinished === 0
  );
}

/** Stacked time-in-state bars: one bar per vehicle (or one when combined), hours per state. */
export function timeInStateChart(data: Productivity, ctx: ChartContext): ChartModel {
  const { language, theme, t } = ctx;
  // Top to bottom in the order the server sent (the category axis is inverted).
  const labels = data.entries.map((entry) => entryLabel(entry, ctx));
  const hours = (seconds: number) => Math.round((seconds / 3600) * 100) / 100;
  const series = VEHICLE_STATES.map((state) => ({
    name: t(`productivity.states.${state}`),
    type: 'bar',
    stack: 'time',
    barMaxWidth: 28,
    itemStyle: { color: STATE_COLORS[state] },
    emphasis: { focus: 'series' },
    data: data.entries.map((entry) => hours(entry.states[state])),
  }));
  const option = {
    ...barCartesian(theme, (value: unknown) =>
      typeof value === 'number'
        ? formatValue({ value: value * 3600, format: 'duration', language })
        : '–',
    ),
    xAxis: {
      type: 'value',
      name: 'h',
      ...axisStyle(theme),
      axisLabel: {
        color: theme.mutedText,
        formatter: (value: number) =>
          formatValue({ value, format: 'decimal', language, digits: 0 }),
      },
    },
    yAxis: { type: 'category', data: labels, inverse: true, ...axisStyle(theme) },
    series,
  };
  const columns = [
    { key: 'vehicle', label: t('productivity.vehicle'), format: 'text' as const },
    ...VEHICLE_STATES.map((state) => ({
      key: state,
      label: t(`productivity.states.${state}`),
      format: 'duration' as const,
    })),
    { key: 'availability', label: t('productivity.kpi.availability'), format: 'share' as const },
    { key: 'utilization', label: t('productivity.kpi.utilization'), format: 'share' as const },
  ];
  const rows = data.entries.map((entry, index) => ({
    vehicle: labels[index] ?? '',
    ...Object.fromEntries(VEHICLE_STATES.map((state) => [state, entry.states[state]])),
    availability: entry.kpis.availability,
    utilization: entry.kpis.utilization,
  }));
  return { option, table: { columns, rows } };
}

/** Chart height that gives every vehicle bar room (phones scroll the page, not the chart). */
export function timeInStateHeight(entryCount: number): number {
  return Math.max(180, Math.min(1200, 70 + entryCount * 34));
}

export interface KpiTileModel {
  key: ProductivityKpiKey;
  label: string;
  value: string;
  previousText: string;
  trend: Trend | null;
  deltaText: string | undefined;
}

/** The KPI tiles of the selection (always the fleet: the selected vehicles combined). */
export function productivityTiles(
  data: Productivity,
  ctx: ChartContext,
  { periodWithoutData = false }: { periodWithoutData?: boolean } = {},
): KpiTileModel[] {
  const { language, t } = ctx;
  const noData = t('charts.noValue');
  // Nothing sent in the period (the charts say so): counts read "no data" like the ratios,
  // not 0, and there is no comparison (as `dashboardTileModel` does).
  const compared = periodWithoutData ? null : comparableFigures(data.fleet.previous);
  return PRODUCTIVITY_KPIS.map((kpi) => {
    const value = periodWithoutData ? null : data.fleet.kpis[kpi.field];
    const previous = compared ? compared[kpi.field] : null;
    const trend = trendOf({ value, previous, higherIsBetter: kpi.higherIsBetter });
    return {
      key: kpi.key,
      label: t(`productivity.kpi.${kpi.key}`),
      value: formatKpiValue({ value, unit: kpi.unit, language, noData }),
      previousText: formatKpiValue({ value: previous, unit: kpi.unit, language, noData }),
      trend,
      deltaText: trend
        ? formatKpiDelta({
            delta: trend.delta,
            unit: kpi.unit,
            language,
            pointsLabel: t('productivity.points'),
          })
        : undefined,
    };
  });
}

/** Finished orders per hour of day (x) and weekday (y), site-local. */
export function ordersHeatmapChart(heatmap: number[][], ctx: ChartContext): ChartModel {
  const { language, theme, t } = ctx;
  const days = weekdayNames(language);
  const hours = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));
  const cells: Array<[number, number, number]> = [];
  let max = 0;
  heatmap.forEach((row, day) => {
    row.forEach((count, hour) => {
      cells.push([hour, day, count]);
      max = Math.max(max, count);
    });
  });
  const option = {
    textStyle: { color: theme.text },
    // The colour scale sits above the grid, apart from the hour axis below it.
    grid: { left: 8, right: 8, top: 44, bottom: 8, containLabel: true },
    tooltip: {
      position: 'top',
      confine: true,
      backgroundColor: theme.tooltipBackground,
      textStyle: { color: theme.text },
      formatter: (params: { value: [number, number, number] }) => {
        const [hour, day, count] = params.value;
        return t('productivity.heatmapTooltip', {
          day: days[day],
          hour: hours[hour],
          count: formatValue({ value: count, format: 'integer', language }),
        });
      },
    },
    xAxis: { type: 'category', data: hours, splitArea: { show: true }, ...axisStyle(theme) },
    yAxis: {
      type: 'category',
      data: days,
      inverse: true,
      splitArea: { show: true },
      ...axisStyle(theme),
    },
    visualMap: {
      min: 0,
      max: Math.max(1, max),
      calculable: false,
      orient: 'horizontal',
      right: 8,
      top: 0,
      itemHeight: 120,
      itemWidth: 12,
      text: [formatValue({ value: Math.max(1, max), format: 'integer', language }), '0'],
      textStyle: { color: theme.mutedText },
      inRange: { color: ['#f1f3f5', '#63e6be', '#0ca678', '#087f5b'] },
    },
    series: [
      {
        name: t('productivity.orders'),
        type: 'heatmap',
        data: cells,
        emphasis: { itemStyle: { borderColor: theme.text, borderWidth: 1 } },
      },
    ],
  };
  const columns = [
    { key: 'weekday', label: t('productivity.weekday'), format: 'text' as const },
    ...hours.map((hour) => ({ key: `h${hour}`, label: `${hour}:00`, format: 'integer' as const })),
    { key: 'total', label: t('productivity.total'), format: 'integer' as const },
  ];
  const rows = heatmap.map((row, day) => ({
    weekday: days[day] ?? String(day),
    ...Object.fromEntries(row.map((count, hour) => [`h${hours[hour]}`, count])),
    total: row.reduce((sum, count) => sum + count, 0),
  }));
  return { option, table: { columns, rows } };
}

export function heatmapIsEmpty(heatmap: number[][]): boolean {
  return heatmap.every((row) => row.every((count) => count === 0));
}

/** Distance (bars, left axis) and loads handled (bars, right axis) per vehicle or combined. */
export function distanceLoadsChart(data: Productivity, ctx: ChartContext): ChartModel {
  const { language, theme, t } = ctx;
  const labels = data.entries.map((entry) => entryLabel(entry, ctx));
  const round1 = (value: number) => Math.round(value * 10) / 10;
  const option = {
    ...barCartesian(theme),
    xAxis: {
      type: 'category',
      data: labels,
      ...axisStyle(theme),
      axisLabel: { color: theme.mutedText, interval: 0, rotate: labels.length > 6 ? 40 : 0 },
    },
    yAxis: [
      { type: 'value', name: 'km', ...axisStyle(theme) },
      {
        type: 'value',
        name: t('productivity.kpi.loads'),
        // Right-aligned to its axis: a long name ("Bewegte Ladungen") must not leave the canvas.
        nameTextStyle: { align: 'right' },
        ...axisStyle(theme),
        splitLine: { show: false },
      },
    ],
    // On a phone the loads axis's name would run into the legend, which names it already.
    ...narrowLabels({ x: true, also: { yAxis: [{}, { name: '' }] } }),
    series: [
      {
        name: t('productivity.kpi.distance'),
        type: 'bar',
        yAxisIndex: 0,
        barMaxWidth: 32,
        itemStyle: { color: theme.palette[1] },
        tooltip: {
          valueFormatter: (value: number) =>
            `${formatValue({ value, format: 'decimal', language })} km`,
        },
        data: data.entries.map((entry) => round1(entry.kpis.distanceKm)),
      },
      {
        name: t('productivity.kpi.loads'),
        type: 'bar',
        yAxisIndex: 1,
        barMaxWidth: 32,
        itemStyle: { color: theme.palette[2] },
        tooltip: {
          valueFormatter: (value: number) => formatValue({ value, format: 'integer', language }),
        },
        data: data.entries.map((entry) => entry.kpis.loadsHandled),
      },
    ],
  };
  const columns = [
    { key: 'vehicle', label: t('productivity.vehicle'), format: 'text' as const },
    {
      key: 'distanceKm',
      label: `${t('productivity.kpi.distance')} (km)`,
      format: 'decimal' as const,
    },
    {
      key: 'previousDistanceKm',
      label: `${t('productivity.previousShort', { name: t('productivity.kpi.distance') })} (km)`,
      format: 'decimal' as const,
    },
    {
      key: 'distancePerOrderKm',
      label: `${t('productivity.distancePerOrder')} (km)`,
      format: 'decimal' as const,
      digits: 2,
    },
    { key: 'loads', label: t('productivity.kpi.loads'), format: 'integer' as const },
    {
      key: 'previousLoads',
      label: t('productivity.previousShort', { name: t('productivity.kpi.loads') }),
      format: 'integer' as const,
    },
  ];
  const rows = data.entries.map((entry, index) => ({
    vehicle: labels[index] ?? '',
    distanceKm: entry.kpis.distanceKm,
    previousDistanceKm: entry.previous.distanceKm,
    distancePerOrderKm: entry.kpis.distancePerOrderKm,
    loads: entry.kpis.loadsHandled,
    previousLoads: entry.previous.loadsHandled,
  }));
  return { option, table: { columns, rows } };
}
