import type { ActionRow } from '../../api/analytics-processes';
import type { ChartContext, ChartModel } from '../../components/charts';
import { barCartesian } from '../../components/charts';
import {
  categoryAxis,
  countAxis,
  narrowLabels,
  numberFormatter,
  OUTCOME_COLORS,
} from '../../components/charts/chartParts';
import { formatShare } from '../../lib/format';
import { isApproximate } from './approximate';

/** Whether the action types' duration and wait percentiles are approximate (one flag for all rows). */
export function actionsApproximate(result: { exact?: boolean } | undefined): boolean {
  return isApproximate(result?.exact);
}

/**
 * Per action type: finished and failed counts (bars) and the failure rate (line, right
 * axis); the table adds the duration percentiles, marked "≈" when `approximate`.
 */
export function actionsChart(
  rows: ActionRow[],
  ctx: ChartContext,
  { approximate = false }: { approximate?: boolean } = {},
): ChartModel {
  const names = rows.map((row) => row.actionType);
  const share = (value: unknown) =>
    typeof value === 'number' ? formatShare(value, ctx.language) : '–';
  return {
    option: {
      ...barCartesian(ctx.theme, numberFormatter(ctx, 3)),
      xAxis: categoryAxis(ctx, names, names.length > 5 ? 30 : 0),
      ...narrowLabels({ x: true }),
      yAxis: [
        countAxis(ctx),
        {
          ...countAxis(ctx),
          minInterval: undefined,
          splitLine: { show: false },
          axisLabel: { color: ctx.theme.mutedText, formatter: share },
        },
      ],
      series: [
        {
          name: ctx.t('processes.outcome.finished'),
          type: 'bar',
          stack: 'count',
          data: rows.map((row) => row.count - row.failed),
          itemStyle: { color: OUTCOME_COLORS.finished },
        },
        {
          name: ctx.t('processes.outcome.failed'),
          type: 'bar',
          stack: 'count',
          data: rows.map((row) => row.failed),
          itemStyle: { color: OUTCOME_COLORS.failed },
        },
        {
          name: ctx.t('processes.failureRate'),
          type: 'line',
          yAxisIndex: 1,
          data: rows.map((row) => row.failureRate),
          itemStyle: { color: ctx.theme.palette[2] },
          tooltip: { valueFormatter: share },
        },
      ],
    },
    table: {
      columns: [
        { key: 'actionType', label: ctx.t('processes.actionType'), format: 'text' },
        { key: 'count', label: ctx.t('processes.count'), format: 'integer' },
        { key: 'failed', label: ctx.t('processes.outcome.failed'), format: 'integer' },
        { key: 'failureRate', label: ctx.t('processes.failureRate'), format: 'share' },
        { key: 'p50', label: ctx.t('processes.durationP50'), format: 'duration', approximate },
        { key: 'p90', label: ctx.t('processes.durationP90'), format: 'duration', approximate },
        { key: 'wait', label: ctx.t('processes.meanWait'), format: 'duration' },
        { key: 'previousCount', label: ctx.t('processes.previousCount'), format: 'integer' },
        {
          key: 'previousFailureRate',
          label: ctx.t('processes.previousFailureRate'),
          format: 'share',
        },
      ],
      rows: rows.map((row) => ({
        actionType: row.actionType,
        count: row.count,
        failed: row.failed,
        failureRate: row.failureRate,
        p50: row.durationP50Seconds,
        p90: row.durationP90Seconds,
        wait: row.meanWaitSeconds,
        previousCount: row.previousCount,
        previousFailureRate: row.previousFailureRate,
      })),
    },
  };
}
