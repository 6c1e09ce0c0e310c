import {
  ERROR_LEVELS,
  type ErrorLevel,
  type FailuresResult,
  type ParetoItem,
  type ReliabilityEntry,
} from '../../api/analytics-failures';
import type { ChartContext, ChartModel } from '../../components/charts';
import { barCartesian, reportedIn } from '../../components/charts';
import {
  categoryAxis,
  countAxis,
  durationAxis,
  durationFormatter,
  entryName,
  narrowLabels,
  numberFormatter,
} from '../../components/charts/chartParts';
import { formatShare } from '../../lib/format';
import { LEVEL_COLORS } from './levels';

/** A level's key in the answer's level counts (`levels.fatal`) and the table's column. */
const levelKey = (level: ErrorLevel) => level.toLowerCase() as Lowercase<ErrorLevel>;

/** Pure transforms of failures/analysis. */

/** Whether the vehicles reported in the period: an empty Pareto then means no errors happened. */
export function failuresReported(data: FailuresResult): boolean {
  return reportedIn(data.fleet.current);
}

/**
 * Pareto of error types: bars by count (stacked by level, in the level colours) or by
 * downtime, with the cumulative share as a line on the right axis (0..100 %).
 */
export function paretoChart(
  items: ParetoItem[],
  measure: 'count' | 'downtime',
  ctx: ChartContext,
): ChartModel {
  const names = items.map((item) => item.errorType);
  const share = (value: unknown) =>
    typeof value === 'number' ? formatShare(value, ctx.language) : '–';
  const bars =
    measure === 'count'
      ? // Stacked in ERROR_LEVELS order: a segment's series index names its level (drill-down).
        ERROR_LEVELS.map((level) => ({
          name: ctx.t(`failures.level.${level}`),
          type: 'bar',
          stack: 'count',
          data: items.map((item) => item.levels[levelKey(level)]),
          itemStyle: { color: LEVEL_COLORS[level] },
          tooltip: { valueFormatter: numberFormatter(ctx) },
        }))
      : [
          {
            name: ctx.t('failures.downtime'),
            type: 'bar',
            data: items.map((item) => item.downtimeSeconds),
            itemStyle: { color: LEVEL_COLORS.FATAL },
            tooltip: { valueFormatter: durationFormatter(ctx) },
          },
        ];
  return {
    option: {
      ...barCartesian(ctx.theme),
      xAxis: categoryAxis(ctx, names, names.length > 4 ? 30 : 0),
      ...narrowLabels({ x: true }),
      yAxis: [
        measure === 'count'
          ? countAxis(ctx)
          : durationAxis(
              ctx,
              items.map((item) => item.downtimeSeconds),
            ),
        {
          type: 'value',
          min: 0,
          max: 1,
          splitLine: { show: false },
          axisLabel: { color: ctx.theme.mutedText, formatter: share },
        },
      ],
      series: [
        ...bars,
        {
          name: ctx.t('failures.cumulativeShare'),
          type: 'line',
          yAxisIndex: 1,
          data: items.map((item) => item.cumulativeShare),
          itemStyle: { color: ctx.theme.text },
          lineStyle: { color: ctx.theme.text },
          tooltip: { valueFormatter: share },
        },
      ],
    },
    table: {
      columns: [
        { key: 'errorType', label: ctx.t('failures.errorType'), format: 'text' },
        { key: 'count', label: ctx.t('failures.count'), format: 'integer' },
        { key: 'downtime', label: ctx.t('failures.downtime'), format: 'duration' },
        // Every level, most severe first: the levels add up to the count.
        ...[...ERROR_LEVELS].reverse().map((level) => ({
          key: levelKey(level),
          label: ctx.t(`failures.level.${level}`),
          format: 'integer' as const,
        })),
        { key: 'share', label: ctx.t('failures.share'), format: 'share' },
        { key: 'cumulativeShare', label: ctx.t('failures.cumulativeShare'), format: 'share' },
      ],
      rows: items.map((item) => ({
        errorType: item.errorType,
        count: item.count,
        downtime: item.downtimeSeconds,
        ...item.levels,
        share: item.share,
        cumulativeShare: item.cumulativeShare,
      })),
    },
  };
}

/** The bars of the reliability chart: each vehicle, then the fleet (unless combined). */
export function reliabilityBars(
  entries: ReliabilityEntry[],
  fleet: ReliabilityEntry,
): ReliabilityEntry[] {
  return entries.some((entry) => entry.vehicleId === null) ? entries : [...entries, fleet];
}

/** MTBF and MTTR per vehicle plus the fleet, with errors per 1,000 orders in the table. */
export function reliabilityChart(
  entries: ReliabilityEntry[],
  fleet: ReliabilityEntry,
  ctx: ChartContext,
): ChartModel {
  const all = reliabilityBars(entries, fleet);
  const names = all.map((entry) =>
    entry.vehicleId === null ? ctx.t('failures.fleet') : entryName(entry.name, ctx),
  );
  return {
    option: {
      ...barCartesian(ctx.theme, durationFormatter(ctx)),
      xAxis: categoryAxis(ctx, names, names.length > 6 ? 30 : 0),
      ...narrowLabels({ x: true }),
      yAxis: [
        durationAxis(
          ctx,
          all.map((entry) => entry.current.mtbfSeconds),
        ),
        {
          ...durationAxis(
            ctx,
            all.map((entry) => entry.current.mttrSeconds),
          ),
          splitLine: { show: false },
        },
      ],
      series: [
        {
          name: ctx.t('failures.mtbf'),
          type: 'bar',
          data: all.map((entry) => entry.current.mtbfSeconds),
          itemStyle: { color: ctx.theme.palette[0] },
        },
        {
          name: ctx.t('failures.mttr'),
          type: 'bar',
          yAxisIndex: 1,
          data: all.map((entry) => entry.current.mttrSeconds),
          itemStyle: { color: LEVEL_COLORS.URGENT },
        },
      ],
    },
    table: {
      columns: [
        { key: 'name', label: ctx.t('processes.vehicle'), format: 'text' },
        { key: 'mtbf', label: ctx.t('failures.mtbf'), format: 'duration' },
        { key: 'mttr', label: ctx.t('failures.mttr'), format: 'duration' },
        { key: 'stops', label: ctx.t('failures.stopEpisodes'), format: 'integer' },
        { key: 'warnings', label: ctx.t('failures.warnings'), format: 'integer' },
        { key: 'downtime', label: ctx.t('failures.downtime'), format: 'duration' },
        { key: 'orders', label: ctx.t('processes.orders'), format: 'integer' },
        { key: 'per1000', label: ctx.t('failures.errorsPer1000'), format: 'decimal' },
        { key: 'stopsPer1000', label: ctx.t('failures.stopsPer1000'), format: 'decimal' },
        { key: 'warningsPer1000', label: ctx.t('failures.warningsPer1000'), format: 'decimal' },
        { key: 'previousMtbf', label: ctx.t('failures.previousMtbf'), format: 'duration' },
      ],
      rows: all.map((entry, index) => ({
        name: names[index] ?? '',
        mtbf: entry.current.mtbfSeconds,
        mttr: entry.current.mttrSeconds,
        stops: entry.current.stopEpisodes,
        warnings: entry.current.warnings,
        downtime: entry.current.downtimeSeconds,
        orders: entry.current.orders,
        per1000: entry.current.errorsPer1000Orders,
        stopsPer1000: entry.current.stopErrorsPer1000Orders,
        warningsPer1000: entry.current.warningsPer1000Orders,
        previousMtbf: entry.previous.mtbfSeconds,
      })),
    },
  };
}
