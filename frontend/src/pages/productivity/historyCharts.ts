import type { Granularity, ProductivityHistory } from '../../api/analytics';
import {
  axisStyle,
  baseCartesian,
  type ChartContext,
  type ChartModel,
  formatKpiValue,
  type KpiUnit,
  seriesLook,
  type TableColumn,
  type ValueFormat,
} from '../../components/charts';
import { entryName } from '../../components/charts/chartParts';
import { formatIsoDate, formatShare, localeFor } from '../../lib/format';
import { escapeHtml } from '../failures/matrixCharts';
import { type ProductivityKpiKey, productivityKpi } from './kpis';

/** ISO 8601 week number of a date (weeks start on Monday; week 1 holds the first Thursday). */
export function isoWeek(iso: string): number {
  const date = new Date(`${iso}T00:00:00Z`);
  const weekday = (date.getUTCDay() + 6) % 7;
  date.setUTCDate(date.getUTCDate() - weekday + 3);
  const firstThursday = new Date(Date.UTC(date.getUTCFullYear(), 0, 4));
  const firstWeekday = (firstThursday.getUTCDay() + 6) % 7;
  firstThursday.setUTCDate(firstThursday.getUTCDate() - firstWeekday + 3);
  return 1 + Math.round((date.getTime() - firstThursday.getTime()) / (7 * 86400000));
}

/** A bucket's axis label: "21/11" / "21.11.", "W47" / "KW 47", "Nov 2026". */
export function bucketLabel(from: string, granularity: Granularity, ctx: ChartContext): string {
  switch (granularity) {
    case 'day':
      return formatIsoDate(from, ctx.language, {
        dateStyle: undefined,
        day: '2-digit',
        month: '2-digit',
      });
    case 'week':
      return ctx.t('productivity.weekLabel', { week: isoWeek(from) });
    case 'month':
      return new Intl.DateTimeFormat(localeFor(ctx.language), {
        month: 'short',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(new Date(`${from}T00:00:00Z`));
  }
}

const TABLE_FORMATS: Record<KpiUnit, ValueFormat> = {
  share: 'share',
  perHour: 'decimal',
  count: 'integer',
  seconds: 'duration',
  percent: 'decimal',
  km: 'decimal',
};

/** True when no series has a single bucket with a value. */
export function historyIsEmpty(data: ProductivityHistory): boolean {
  const { plannedSeconds, ordersFinished } = data.kpis;
  // A bucket without any recorded time has null figures (only its length is known).
  return plannedSeconds.every((line, series) =>
    line.every((planned, bucket) => !planned && !ordersFinished[series]?.[bucket]),
  );
}

/** A running bucket's point: a lighter dot at the end of the dashed segment, "so far". */
export interface PartialPoint {
  value: number | null;
  partial: true;
  symbol: 'circle';
  symbolSize: number;
  itemStyle: { opacity: number };
}

/**
 * A line split at its running buckets: `settled` without them (drawn as before), `running`
 * only the segment into each one, from the bucket before, ending in a `PartialPoint`.
 */
export function splitRunning(
  values: ReadonlyArray<number | null>,
  buckets: ReadonlyArray<{ partial?: boolean }>,
): { settled: Array<number | null>; running: Array<number | null | PartialPoint> } {
  return {
    settled: values.map((value, index) => (buckets[index]?.partial ? null : value)),
    running: values.map((value, index) => {
      if (buckets[index]?.partial) {
        return {
          value,
          partial: true,
          symbol: 'circle',
          symbolSize: 8,
          itemStyle: { opacity: 0.6 },
        };
      }
      return buckets[index + 1]?.partial ? value : null;
    }),
  };
}

/** A tooltip parameter of an axis tooltip (only what the history's tooltip reads). */
interface AxisParam {
  seriesIndex?: number;
  dataIndex?: number;
}

/** The colour dot before a tooltip line, as ECharts draws it. */
function tooltipDot(color: string, opacity: number): string {
  return `<span style="display:inline-block;margin-right:4px;border-radius:10px;width:10px;height:10px;background-color:${color};opacity:${opacity}"></span>`;
}

/**
 * One KPI over the buckets: a solid line per vehicle (or the combined one) and the previous
 * period dashed in the same colour, aligned by bucket index. Only the buckets the answer
 * holds are drawn (none in the future). A running bucket is set apart: the segment into it
 * dashed (dotted for the previous period) ending in a lighter dot, "so far" in the tooltip
 * and the table (its previous-period twin, cut at the same time: "to the same time"). The
 * running segments are series of their own after the pairs, in the same order and under the
 * same names (one legend entry; series index parity still tells the previous period).
 */
export function historyChart(
  data: ProductivityHistory,
  kpiKey: ProductivityKpiKey,
  ctx: ChartContext,
): ChartModel {
  const { language, theme, t } = ctx;
  const kpi = productivityKpi(kpiKey);
  const current = data.kpis[kpi.field];
  const before = data.previous[kpi.field];
  const reference = data.buckets;
  const labels = reference.map((bucket) => bucketLabel(bucket.from, data.granularity, ctx));
  const noData = t('charts.noValue');
  const previousLabel = t('charts.previousPeriod');
  const showSymbols = reference.length <= 31;
  const soFar = t('charts.soFar');
  const previousSoFar = t('charts.previousSoFar');
  const running =
    reference.some((bucket) => bucket.partial) ||
    data.previousBuckets.some((bucket) => bucket.partial);
  const lines = data.series.map((line, index) => {
    // Dashes mean the previous period here: vehicles beyond the palette differ by symbol.
    const { color, symbol } = seriesLook(theme, index);
    return {
      color,
      symbol,
      name: entryName(line.name, ctx),
      current: splitRunning(current[index] ?? [], reference),
      previous: splitRunning(before[index] ?? [], data.previousBuckets),
    };
  });
  const pairs = lines.flatMap(({ color, symbol, name, current: now, previous }) => [
    {
      name,
      type: 'line',
      data: now.settled,
      symbol,
      showSymbol: showSymbols,
      connectNulls: false,
      itemStyle: { color },
      lineStyle: { color, width: 2 },
    },
    {
      name: `${name} (${previousLabel})`,
      type: 'line',
      data: previous.settled,
      showSymbol: false,
      connectNulls: false,
      itemStyle: { color, opacity: 0.6 },
      lineStyle: { color, width: 1.5, type: 'dashed', opacity: 0.7 },
    },
  ]);
  // Only the running point has a size: the segment's start is a point of the settled line.
  const runningSegments = running
    ? lines.flatMap(({ color, name, current: now, previous }) => [
        {
          name,
          type: 'line',
          data: now.running,
          showSymbol: true,
          symbolSize: 0,
          connectNulls: false,
          itemStyle: { color },
          lineStyle: { color, width: 2, type: 'dashed', opacity: 0.8 },
        },
        {
          name: `${name} (${previousLabel})`,
          type: 'line',
          data: previous.running,
          showSymbol: true,
          symbolSize: 0,
          connectNulls: false,
          itemStyle: { color, opacity: 0.6 },
          lineStyle: { color, width: 1.5, type: 'dotted', opacity: 0.7 },
        },
      ])
    : [];
  const series = [...pairs, ...runningSegments];
  const pairCount = Math.max(pairs.length, 1);
  const option = {
    ...baseCartesian(theme),
    tooltip: {
      ...baseCartesian(theme).tooltip,
      // Read from the data, not from the series: a running bucket's value lies on its own
      // series, and each line reads once with its note.
      formatter: (params: AxisParam | AxisParam[]) => {
        const items = Array.isArray(params) ? params : [params];
        const bucket = items[0]?.dataIndex ?? 0;
        const shown = new Set(items.map((item) => (item.seriesIndex ?? 0) % pairCount));
        const header = `${escapeHtml(labels[bucket] ?? '')}${
          reference[bucket]?.partial ? ` (${escapeHtml(soFar)})` : ''
        }`;
        const rows = lines.flatMap((line, index) =>
          [false, true]
            .filter((previous) => shown.has(2 * index + (previous ? 1 : 0)))
            .map((previous) => {
              const values = previous ? before : current;
              const partial = (previous ? data.previousBuckets : reference)[bucket]?.partial;
              const name = previous ? `${line.name} (${previousLabel})` : line.name;
              const note = partial ? ` (${previous ? previousSoFar : soFar})` : '';
              const value = formatKpiValue({
                value: values[index]?.[bucket] ?? null,
                unit: kpi.unit,
                language,
                noData,
              });
              return `${tooltipDot(line.color, previous ? 0.6 : 1)}${escapeHtml(name)}: <b>${escapeHtml(value)}</b>${escapeHtml(note)}`;
            }),
        );
        return [header, ...rows].join('<br/>');
      },
    },
    grid: { ...baseCartesian(theme).grid, bottom: reference.length > 14 ? 48 : 8 },
    dataZoom:
      reference.length > 14 ? [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 4 }] : [],
    xAxis: { type: 'category', data: labels, boundaryGap: false, ...axisStyle(theme) },
    yAxis: {
      type: 'value',
      scale: kpi.unit !== 'share',
      ...axisStyle(theme),
      axisLabel: {
        color: theme.mutedText,
        formatter: (value: number) =>
          kpi.unit === 'share'
            ? formatShare(value, language, { digits: 0 })
            : new Intl.NumberFormat(localeFor(language)).format(value),
      },
      ...(kpi.unit === 'share' ? { min: 0, max: 1 } : {}),
    },
    series,
  };
  const format = TABLE_FORMATS[kpi.unit];
  const columns: TableColumn[] = [
    { key: 'from', label: t('productivity.bucketFrom'), format: 'date' },
    { key: 'to', label: t('productivity.bucketTo'), format: 'date' },
    { key: 'state', label: t('charts.bucketState'), format: 'text' },
    ...data.series.flatMap((line, index) => [
      { key: `s${index}`, label: entryName(line.name, ctx), format, digits: 2 },
      {
        key: `p${index}`,
        label: `${entryName(line.name, ctx)} (${previousLabel})`,
        format,
        digits: 2,
      },
    ]),
  ];
  const rows = reference.map((range, bucket) => ({
    from: range.from,
    to: range.to,
    state: range.partial ? soFar : t('charts.bucketComplete'),
    ...Object.fromEntries(
      data.series.flatMap((_, index) => [
        [`s${index}`, current[index]?.[bucket] ?? null],
        [`p${index}`, before[index]?.[bucket] ?? null],
      ]),
    ),
  }));
  return { option, table: { columns, rows } };
}
