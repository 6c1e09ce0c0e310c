import type { ProcessEntry, ProcessFigures } from '../../api/analytics-processes';
import type { ChartContext, ChartModel } from '../../components/charts';
import { barCartesian } from '../../components/charts';
import {
  bucketLabels,
  categoryAxis,
  countAxis,
  durationAxis,
  durationFormatter,
  entryName,
  histogramFrame,
  narrowLabels,
  numberFormatter,
  OUTCOME_COLORS,
  rangeAxis,
} from '../../components/charts/chartParts';
import { OUTCOME_STACK } from '../../lib/drillDown';
import { anyApproximate, approximateFormatter } from './approximate';

/** Pure transforms of the processes analysis: API data + language -> chart and table. */

/** First and last bucket with orders in either period (0..0 when there are none). */
export function occupiedSpan(...histograms: number[][]): { first: number; last: number } {
  let first = Number.POSITIVE_INFINITY;
  let last = -1;
  for (const histogram of histograms) {
    histogram.forEach((count, index) => {
      if (count > 0) {
        first = Math.min(first, index);
        last = Math.max(last, index);
      }
    });
  }
  return last < 0 ? { first: 0, last: -1 } : { first, last };
}

/** The server's bucket of each bar of `cycleHistogramChart` (the buckets with orders). */
export function histogramBuckets(data: {
  current: ProcessFigures;
  previous: ProcessFigures;
}): number[] {
  const { first, last } = occupiedSpan(data.current.histogram, data.previous.histogram);
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, index) => first + index);
}

/** Cycle-time histogram, current period against the previous one. */
export function cycleHistogramChart(
  data: { histogramEdges: number[]; current: ProcessFigures; previous: ProcessFigures },
  ctx: ChartContext,
): ChartModel {
  // The server's buckets cover seconds to hours; show only the span that has orders.
  const buckets = histogramBuckets(data);
  const allLabels = bucketLabels(data.histogramEdges, ctx.language);
  const labels = buckets.map((bucket) => allLabels[bucket] ?? '');
  const currentCounts = buckets.map((bucket) => data.current.histogram[bucket] ?? 0);
  const previousCounts = buckets.map((bucket) => data.previous.histogram[bucket] ?? 0);
  const current = ctx.t('processes.currentPeriod');
  const previous = ctx.t('processes.previousPeriod');
  return {
    option: {
      ...histogramFrame(ctx, ctx.t('processes.orders')),
      xAxis: rangeAxis(ctx, labels),
      series: [
        {
          name: current,
          type: 'bar',
          data: currentCounts,
          itemStyle: { color: ctx.theme.palette[0] },
        },
        {
          name: previous,
          type: 'bar',
          data: previousCounts,
          itemStyle: { color: ctx.theme.previous, opacity: 0.45 },
        },
      ],
    },
    table: {
      columns: [
        { key: 'bucket', label: ctx.t('processes.cycleTime'), format: 'text' },
        { key: 'current', label: current, format: 'integer' },
        { key: 'previous', label: previous, format: 'integer' },
      ],
      rows: labels.map((bucket, index) => ({
        bucket,
        current: currentCounts[index] ?? 0,
        previous: previousCounts[index] ?? 0,
      })),
    },
  };
}

/** Finished, failed and cancelled orders per vehicle (or combined), stacked. */
export function outcomesChart(entries: ProcessEntry[], ctx: ChartContext): ChartModel {
  const names = entries.map((entry) => entryName(entry.name, ctx));
  const keys = OUTCOME_STACK;
  return {
    option: {
      ...barCartesian(ctx.theme, numberFormatter(ctx)),
      xAxis: countAxis(ctx),
      yAxis: { ...categoryAxis(ctx, names), inverse: true },
      ...narrowLabels({ y: true }),
      series: keys.map((key) => ({
        name: ctx.t(`processes.outcome.${key}`),
        type: 'bar',
        stack: 'outcomes',
        data: entries.map((entry) => entry.current.outcomes[key]),
        itemStyle: { color: OUTCOME_COLORS[key] },
      })),
    },
    table: {
      columns: [
        { key: 'name', label: ctx.t('processes.vehicle'), format: 'text' },
        ...keys.map((key) => ({
          key,
          label: ctx.t(`processes.outcome.${key}`),
          format: 'integer' as const,
        })),
        { key: 'successRate', label: ctx.t('processes.successRate'), format: 'share' },
        {
          key: 'previousSuccessRate',
          label: ctx.t('processes.previousSuccessRate'),
          format: 'share',
        },
      ],
      rows: entries.map((entry, index) => ({
        name: names[index] ?? '',
        finished: entry.current.outcomes.finished,
        failed: entry.current.outcomes.failed,
        cancelled: entry.current.outcomes.cancelled,
        successRate: entry.current.outcomes.successRate,
        previousSuccessRate: entry.previous.outcomes.successRate,
      })),
    },
  };
}

/**
 * p50, p90, p95 of the cycle time per vehicle, with max, paused and waiting in the table;
 * percentiles from a histogram (a period longer than 31 days) are marked "≈" in the table
 * and the tooltip.
 */
export function cyclePercentilesChart(entries: ProcessEntry[], ctx: ChartContext): ChartModel {
  const names = entries.map((entry) => entryName(entry.name, ctx));
  const percentiles = [
    ['p50', 'p50Seconds'],
    ['p90', 'p90Seconds'],
    ['p95', 'p95Seconds'],
  ] as const;
  const approximate = anyApproximate(entries.map((entry) => entry.current.cycle));
  const previousApproximate = anyApproximate(entries.map((entry) => entry.previous.cycle));
  const duration = durationFormatter(ctx);
  return {
    option: {
      ...barCartesian(ctx.theme, durationFormatter(ctx)),
      xAxis: categoryAxis(ctx, names, names.length > 6 ? 30 : 0),
      ...narrowLabels({ x: true }),
      yAxis: durationAxis(
        ctx,
        entries.flatMap((entry) => percentiles.map(([, key]) => entry.current.cycle[key])),
      ),
      series: percentiles.map(([label, key], index) => ({
        name: label,
        type: 'bar',
        data: entries.map((entry) => entry.current.cycle[key]),
        itemStyle: { color: ctx.theme.palette[index] },
        tooltip: { valueFormatter: approximateFormatter(duration, approximate) },
      })),
    },
    table: {
      columns: [
        { key: 'name', label: ctx.t('processes.vehicle'), format: 'text' },
        { key: 'count', label: ctx.t('processes.finishedOrders'), format: 'integer' },
        ...percentiles.map(([label]) => ({
          key: label,
          label,
          format: 'duration' as const,
          approximate,
        })),
        { key: 'max', label: ctx.t('processes.max'), format: 'duration' },
        {
          key: 'previousP50',
          label: ctx.t('processes.previousP50'),
          format: 'duration',
          approximate: previousApproximate,
        },
        { key: 'paused', label: ctx.t('processes.pausedTime'), format: 'duration' },
        { key: 'waiting', label: ctx.t('processes.waitingTime'), format: 'duration' },
      ],
      rows: entries.map((entry, index) => ({
        name: names[index] ?? '',
        count: entry.current.cycle.count,
        p50: entry.current.cycle.p50Seconds,
        p90: entry.current.cycle.p90Seconds,
        p95: entry.current.cycle.p95Seconds,
        max: entry.current.cycle.maxSeconds,
        previousP50: entry.previous.cycle.p50Seconds,
        paused: entry.current.times.pausedSeconds,
        waiting: entry.current.times.waitingSeconds,
      })),
    },
  };
}
