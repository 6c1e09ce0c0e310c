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

/**
 * One KPI over the buckets: a solid line per vehicle (or the combined one) and the previous
 * period dashed in the same colour, aligned by bucket index.
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
  const series = data.series.flatMap((line, index) => {
    const color = theme.palette[index % theme.palette.length];
    const name = seriesName(line.name, ctx);
    return [
      {
        name,
        type: 'line',
        data: current[index] ?? [],
        showSymbol: showSymbols,
        connectNulls: false,
        itemStyle: { color },
        lineStyle: { color, width: 2 },
      },
      {
        name: `${name} (${previousLabel})`,
        type: 'line',
        data: before[index] ?? [],
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
      valueFormatter: (value: unknown) =>
        formatKpiValue({
          value: typeof value === 'number' ? value : null,
          unit: kpi.unit,
          language,
          noData,
        }),
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
    ...Object.fromEntries(
      data.series.flatMap((_, index) => [
        [`s${index}`, current[index]?.[bucket] ?? null],
        [`p${index}`, before[index]?.[bucket] ?? null],
      ]),
    ),
  }));
  return { option, table: { columns, rows } };
}
