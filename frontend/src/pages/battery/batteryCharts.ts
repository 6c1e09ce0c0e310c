import type { BatteryEntry, BatteryResult } from '../../api/analytics-battery';
import type { ChartContext, ChartModel } from '../../components/charts';
import { axisStyle, barCartesian, baseCartesian, seriesLook } from '../../components/charts';
import {
  categoryAxis,
  countAxis,
  entryName,
  histogramFrame,
  narrowLabels,
  numberFormatter,
} from '../../components/charts/chartParts';
import { formatNumber, formatPercent } from '../../lib/format';
import { percent, siteTimeTicks, timeAxis } from './batteryChartParts';

/** Pure transforms of the battery page. Charges are percentages (0..100). */

/** Charge over time, one line per vehicle or the combined line, with the low-charge threshold marked. */
export function chargeChart(data: BatteryResult, ctx: ChartContext): ChartModel {
  const format = percent(ctx);
  const timeTicks = siteTimeTicks(
    ctx,
    data.series.flatMap((series) => series.points.map(([at]) => at)),
  );
  return {
    timeTicks,
    option: {
      ...baseCartesian(ctx.theme),
      tooltip: { ...baseCartesian(ctx.theme).tooltip, valueFormatter: format },
      xAxis: timeAxis(ctx, timeTicks),
      yAxis: {
        type: 'value',
        min: 0,
        max: 100,
        ...axisStyle(ctx.theme),
        axisLabel: { color: ctx.theme.mutedText, formatter: format },
      },
      dataZoom: [{ type: 'inside' }],
      series: data.series.map((series, index) => ({
        name: entryName(series.name, ctx),
        type: 'line',
        showSymbol: false,
        sampling: 'lttb',
        data: series.points,
        ...vehicleLineStyle(ctx, index),
        ...(index === 0
          ? {
              markLine: {
                silent: true,
                symbol: 'none',
                lineStyle: { color: '#e03131', type: 'dashed' },
                label: {
                  position: 'insideStartTop',
                  formatter: ctx.t('battery.lowCharge', { value: format(data.lowChargeThreshold) }),
                },
                data: [{ yAxis: data.lowChargeThreshold }],
              },
            }
          : {}),
      })),
    },
    table: {
      columns: [
        { key: 'vehicle', label: ctx.t('battery.vehicle'), format: 'text' },
        { key: 'at', label: ctx.t('battery.time'), format: 'dateTime', timeZone: ctx.timeZone },
        { key: 'charge', label: ctx.t('battery.charge'), format: 'decimal' },
      ],
      rows: data.series.flatMap((series) =>
        series.points.map(([at, charge]) => ({
          vehicle: entryName(series.name, ctx),
          at,
          charge,
        })),
      ),
    },
  };
}

/** A charge line's colour and line type; its legend icon and tooltip dot take the colour. */
function vehicleLineStyle(ctx: ChartContext, index: number) {
  const { color, lineType } = seriesLook(ctx.theme, index);
  return { itemStyle: { color }, lineStyle: { width: 1.5, color, type: lineType } };
}

/** "20–30%": a bar of the depth-of-discharge histogram (from `depth` to 10 points more). */
export function depthRangeText(depth: number, language: string): string {
  return `${formatNumber(depth, language)}–${formatPercent(depth + 10, language, { digits: 0 })}`;
}

/** Depth-of-discharge histogram (10-point bins), current against the previous period. */
export function depthHistogramChart(entry: BatteryEntry, ctx: ChartContext): ChartModel {
  const labels = entry.current.sessions.depthHistogram.map((_, index) =>
    depthRangeText(index * 10, ctx.language),
  );
  const current = ctx.t('processes.currentPeriod');
  const previous = ctx.t('processes.previousPeriod');
  return {
    option: {
      ...histogramFrame(ctx, ctx.t('battery.cycles')),
      xAxis: categoryAxis(ctx, labels, 30),
      ...narrowLabels({ x: true }),
      series: [
        {
          name: current,
          type: 'bar',
          data: entry.current.sessions.depthHistogram,
          itemStyle: { color: ctx.theme.palette[1] },
        },
        {
          name: previous,
          type: 'bar',
          data: labels.map((_, index) => entry.previous.sessions.depthHistogram[index] ?? 0),
          itemStyle: { color: ctx.theme.previous, opacity: 0.45 },
        },
      ],
    },
    table: {
      columns: [
        { key: 'bin', label: ctx.t('battery.depthOfDischarge'), format: 'text' },
        { key: 'current', label: current, format: 'integer' },
        { key: 'previous', label: previous, format: 'integer' },
      ],
      rows: labels.map((bin, index) => ({
        bin,
        current: entry.current.sessions.depthHistogram[index] ?? 0,
        previous: entry.previous.sessions.depthHistogram[index] ?? 0,
      })),
    },
  };
}

const HEALTH_AXIS_STEPS = [2, 5, 10, 20, 25, 30, 50];

/**
 * The health axis: from a multiple of 10 at least 5 points under the lowest health up to
 * 100 %, in a step that ends exactly at 100 (ECharts' own step, say 3 from 87, would add
 * a last tick 100 % on top of 99 %).
 */
export function healthAxisRange(health: readonly (number | null)[]): {
  min: number;
  max: number;
  interval: number;
} {
  const known = health.filter((value): value is number => value !== null);
  const lowest = known.length > 0 ? Math.min(...known) : 100;
  const min = Math.max(0, Math.min(90, Math.floor((lowest - 5) / 10) * 10));
  const extent = 100 - min;
  const interval =
    HEALTH_AXIS_STEPS.find((step) => extent % step === 0 && extent / step <= 7) ?? extent;
  return { min, max: 100, interval };
}

/**
 * Per vehicle: equivalent full cycles (bars) and health (line, right axis), with every
 * battery figure in the table. Shares arrive as fractions; charges as percentages.
 */
export function vehicleBatteryChart(entries: BatteryEntry[], ctx: ChartContext): ChartModel {
  const names = entries.map((entry) => entryName(entry.name, ctx));
  const format = percent(ctx);
  return {
    option: {
      ...barCartesian(ctx.theme),
      xAxis: categoryAxis(ctx, names, names.length > 6 ? 30 : 0),
      ...narrowLabels({ x: true }),
      yAxis: [
        { ...countAxis(ctx), minInterval: undefined },
        {
          type: 'value',
          ...healthAxisRange(entries.map((entry) => entry.current.healthLatest)),
          splitLine: { show: false },
          axisLabel: { color: ctx.theme.mutedText, formatter: format },
        },
      ],
      series: [
        {
          name: ctx.t('battery.equivalentFullCycles'),
          type: 'bar',
          data: entries.map((entry) => entry.current.sessions.equivalentFullCycles),
          itemStyle: { color: ctx.theme.palette[1] },
          tooltip: { valueFormatter: numberFormatter(ctx, 2) },
        },
        {
          name: ctx.t('battery.health'),
          type: 'line',
          yAxisIndex: 1,
          data: entries.map((entry) => entry.current.healthLatest),
          itemStyle: { color: ctx.theme.palette[0] },
          tooltip: { valueFormatter: format },
        },
      ],
    },
    table: {
      columns: [
        { key: 'name', label: ctx.t('battery.vehicle'), format: 'text' },
        { key: 'meanCharge', label: ctx.t('battery.meanCharge'), format: 'percent' },
        { key: 'minCharge', label: ctx.t('battery.minCharge'), format: 'percent' },
        { key: 'sessions', label: ctx.t('battery.sessions'), format: 'integer' },
        { key: 'meanDuration', label: ctx.t('battery.meanSessionDuration'), format: 'duration' },
        { key: 'meanAdded', label: ctx.t('battery.meanAddedCharge'), format: 'percent' },
        { key: 'efc', label: ctx.t('battery.equivalentFullCycles'), format: 'decimal', digits: 2 },
        { key: 'meanDepth', label: ctx.t('battery.meanDepth'), format: 'percent' },
        { key: 'health', label: ctx.t('battery.health'), format: 'percent' },
        {
          key: 'slope',
          label: ctx.t('battery.healthSlopeColumn'),
          format: 'decimal',
          digits: 2,
        },
        { key: 'belowLow', label: ctx.t('battery.belowLow'), format: 'duration' },
        { key: 'chargingShare', label: ctx.t('battery.chargingShare'), format: 'share' },
        { key: 'addedKWh', label: `${ctx.t('battery.addedEnergy')} (kWh)`, format: 'decimal' },
        {
          key: 'dischargedKWh',
          label: `${ctx.t('battery.dischargedEnergy')} (kWh)`,
          format: 'decimal',
        },
      ],
      rows: entries.map((entry, index) => ({
        name: names[index] ?? '',
        meanCharge: entry.current.meanCharge,
        minCharge: entry.current.minCharge,
        sessions: entry.current.sessions.count,
        meanDuration: entry.current.sessions.meanDurationSeconds,
        meanAdded: entry.current.sessions.meanAddedCharge,
        efc: entry.current.sessions.equivalentFullCycles,
        meanDepth: entry.current.sessions.meanDepthOfDischarge,
        health: entry.current.healthLatest,
        slope: entry.current.healthSlopePer30Days,
        belowLow: entry.current.belowLowSeconds,
        chargingShare: entry.current.chargingShare,
        addedKWh: kiloWattHours(entry.current.sessions.addedEnergyWh),
        dischargedKWh: kiloWattHours(entry.current.sessions.dischargedEnergyWh),
      })),
    },
  };
}

/** The API's Wh as kWh (the unit a fleet's energy is read in); null stays "no data". */
export function kiloWattHours(wattHours: number | null): number | null {
  return wattHours === null ? null : wattHours / 1000;
}
