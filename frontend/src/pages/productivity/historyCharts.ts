import type { Granularity, ProductivityHistory } from '../../api/analytics';
import {
  axisStyle,
  baseCartesian,
  type ChartContext,
  type ChartModel,
  formatKpiValue,
  type KpiUnit,
  type TableColumn,
  type ValueFormat,
} from '../../components/charts';
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

function seriesName(name: string | null, ctx: ChartContext): string {
  return name ?? ctx.t('productivity.combined');
}

/** True when no series has a single bucket with a value. */
export function historyIsEmpty(data: ProductivityHistory): boolean {
  const { plannedSeconds, ordersFinished } = data.kpis;
  return plannedSeconds.every((line, series) =>
    line.every((planned, bucket) => planned === 0 && ordersFinished[series]?.[bucket] === 0),
  );
}

/** A running bucket's point: hollow and lighter, its value "so far". */
export interface PartialPoint {
  value: number | null;
  partial: true;
  symbol: 'emptyCircle';
  symbolSize: number;
  itemStyle: { opacity: number };
}

/** The buckets' values, each running (partial) one as a `PartialPoint`. */
export function lineData(
  values: ReadonlyArray<number | null>,
  buckets: ReadonlyArray<{ partial?: boolean }>,
): Array<number | null | PartialPoint> {
  return values.map((value, index) =>
    buckets[index]?.partial
      ? { value, partial: true, symbol: 'emptyCircle', symbolSize: 9, itemStyle: { opacity: 0.55 } }
      : value,
  );
}

/** A tooltip parameter of an axis tooltip (only what the history's tooltip reads). */
interface AxisParam {
  seriesIndex?: number;
  dataIndex?: number;
  seriesName?: string;
  marker?: unknown;
  value?: unknown;
  axisValueLabel?: string;
}

/**
 * One KPI over the buckets: a solid line per vehicle (or the combined one) and the previous
 * period dashed in the same colour, aligned by bucket index. Only the buckets the answer
 * holds are drawn (none in the future); a running bucket is a hollow, lighter point that
 * the tooltip and the table call "so far" (its previous-period twin "to the same time").
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
  const hasPartial = reference.some((bucket) => bucket.partial);
  const formatValue = (value: unknown) =>
    formatKpiValue({
      value: typeof value === 'number' ? value : null,
      unit: kpi.unit,
      language,
      noData,
    });
  const series = data.series.flatMap((line, index) => {
    const color = theme.palette[index % theme.palette.length];
    const name = seriesName(line.name, ctx);
    return [
      {
        name,
        type: 'line',
        data: lineData(current[index] ?? [], reference),
        // A running bucket's hollow point shows even where a long period hides the symbols.
        showSymbol: showSymbols || hasPartial,
        // (the other points stay hidden there: size 0; the partial item sets its own size).
        ...(showSymbols ? {} : { symbolSize: 0 }),
        connectNulls: false,
        itemStyle: { color },
        lineStyle: { color, width: 2 },
      },
      {
        name: `${name} (${previousLabel})`,
        type: 'line',
        data: lineData(before[index] ?? [], data.previousBuckets),
        showSymbol: false,
        connectNulls: false,
        itemStyle: { color, opacity: 0.6 },
        lineStyle: { color, width: 1.5, type: 'dashed', opacity: 0.7 },
      },
    ];
  });
  const option = {
    ...baseCartesian(theme),
    tooltip: {
      ...baseCartesian(theme).tooltip,
      formatter: (params: AxisParam | AxisParam[]) => {
        const items = Array.isArray(params) ? params : [params];
        const bucket = items[0]?.dataIndex ?? 0;
        const header = `${escapeHtml(items[0]?.axisValueLabel ?? labels[bucket] ?? '')}${
          reference[bucket]?.partial ? ` (${soFar})` : ''
        }`;
        const lines = items.map((item) => {
          const previous = (item.seriesIndex ?? 0) % 2 === 1;
          const partial = previous
            ? data.previousBuckets[item.dataIndex ?? 0]?.partial
            : reference[item.dataIndex ?? 0]?.partial;
          const value = typeof item.value === 'object' && item.value !== null ? null : item.value;
          const note = partial ? ` (${previous ? previousSoFar : soFar})` : '';
          return `${typeof item.marker === 'string' ? item.marker : ''}${escapeHtml(item.seriesName ?? '')}: <b>${escapeHtml(formatValue(value))}</b>${escapeHtml(note)}`;
        });
        return [header, ...lines].join('<br/>');
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
      { key: `s${index}`, label: seriesName(line.name, ctx), format, digits: 2 },
      {
        key: `p${index}`,
        label: `${seriesName(line.name, ctx)} (${previousLabel})`,
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
