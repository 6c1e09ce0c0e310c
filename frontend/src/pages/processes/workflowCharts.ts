import type { WorkflowRow } from '../../api/analytics-processes';
import type { ChartContext, ChartModel, TableData } from '../../components/charts';
import { barCartesian } from '../../components/charts';
import {
  categoryAxis,
  durationAxis,
  durationFormatter,
  narrowLabels,
} from '../../components/charts/chartParts';
import { approximateFormatter, isApproximate } from './approximate';

/** Pure transforms of processes/workflows and processes/actions. */

/**
 * Whether the workflows' cycle-time percentiles are approximate (one flag for every row, the
 * previous period's too: it is as long as the period, so computed the same way).
 */
export function workflowsApproximate(result: { exact?: boolean } | undefined): boolean {
  return isApproximate(result?.exact);
}

/** Options of the workflow transforms. */
export interface WorkflowChartOptions {
  /** The percentiles come from histograms ("≈" in the tooltip and the table). */
  approximate?: boolean;
  /**
   * The previous period recorded anything (`previousRecorded`); without, the orders' trend is
   * no comparison ("+96 against 0" before the fleet was connected) and left empty.
   */
  compared?: boolean;
}

export function workflowsTable(
  rows: WorkflowRow[],
  ctx: ChartContext,
  { approximate = false, compared = true }: WorkflowChartOptions = {},
): TableData {
  return {
    columns: [
      { key: 'workflow', label: ctx.t('processes.workflow'), format: 'text' },
      { key: 'orders', label: ctx.t('processes.orders'), format: 'integer' },
      { key: 'successRate', label: ctx.t('processes.successRate'), format: 'share' },
      { key: 'p50', label: ctx.t('processes.cycleP50'), format: 'duration', approximate },
      { key: 'p90', label: ctx.t('processes.cycleP90'), format: 'duration', approximate },
      { key: 'previousOrders', label: ctx.t('processes.previousOrders'), format: 'integer' },
      { key: 'ordersTrend', label: ctx.t('processes.ordersTrend'), format: 'integer' },
      {
        key: 'previousSuccessRate',
        label: ctx.t('processes.previousSuccessRate'),
        format: 'share',
      },
      {
        key: 'previousP50',
        label: ctx.t('processes.previousP50'),
        format: 'duration',
        approximate,
      },
    ],
    rows: rows.map((row) => ({
      workflow: row.workflow,
      orders: row.orders,
      successRate: row.successRate,
      p50: row.cycleP50Seconds,
      p90: row.cycleP90Seconds,
      previousOrders: row.previousOrders,
      ordersTrend: compared ? row.ordersTrend : null,
      previousSuccessRate: row.previousSuccessRate,
      previousP50: row.previousCycleP50Seconds,
    })),
  };
}

/** Cycle time p50 and p90 per workflow against the previous period's p50. */
export function workflowCycleChart(
  rows: WorkflowRow[],
  ctx: ChartContext,
  options: WorkflowChartOptions = {},
): ChartModel {
  const approximate = options.approximate ?? false;
  const names = rows.map((row) => row.workflow);
  return {
    option: {
      // Every series is a percentile.
      ...barCartesian(ctx.theme, approximateFormatter(durationFormatter(ctx), approximate)),
      xAxis: categoryAxis(ctx, names, names.length > 5 ? 30 : 0),
      ...narrowLabels({ x: true }),
      yAxis: durationAxis(
        ctx,
        rows.flatMap((row) => [
          row.cycleP50Seconds,
          row.cycleP90Seconds,
          row.previousCycleP50Seconds,
        ]),
      ),
      series: [
        {
          name: ctx.t('processes.cycleP50'),
          type: 'bar',
          data: rows.map((row) => row.cycleP50Seconds),
          itemStyle: { color: ctx.theme.palette[0] },
        },
        {
          name: ctx.t('processes.cycleP90'),
          type: 'bar',
          data: rows.map((row) => row.cycleP90Seconds),
          itemStyle: { color: ctx.theme.palette[1] },
        },
        {
          name: ctx.t('processes.previousP50'),
          type: 'line',
          data: rows.map((row) => row.previousCycleP50Seconds),
          lineStyle: { type: 'dashed', color: ctx.theme.previous },
          itemStyle: { color: ctx.theme.previous },
        },
      ],
    },
    table: workflowsTable(rows, ctx, options),
  };
}
