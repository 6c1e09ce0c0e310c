import { formatNumber } from '../../lib/format';
import type { ChartOption } from './types';

/**
 * Numbers ECharts writes by itself (value-axis ticks, visual-map ends, tooltip values) in
 * the user's language: ECharts groups with "," whatever the locale, so a German axis read
 * "1,000" for a thousand. Only what a transform left unformatted is filled in; pure.
 */
type Part = Record<string, unknown>;

const isPart = (value: unknown): value is Part =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function asList(value: unknown): Part[] {
  return (Array.isArray(value) ? value : [value]).filter(isPart);
}

export function localizeOption(option: ChartOption, language: string): ChartOption {
  const number = (value: unknown) =>
    typeof value === 'number'
      ? formatNumber(value, language, { maximumFractionDigits: 2 })
      : String(value ?? '');
  // ECharts' defaults: an x axis without a type is a category axis, a y axis a value axis.
  const axis = (part: Part, fallback: string): Part => {
    const kind = part.type ?? fallback;
    const label = isPart(part.axisLabel) ? part.axisLabel : {};
    if ((kind !== 'value' && kind !== 'log') || label.formatter !== undefined) {
      return part;
    }
    return { ...part, axisLabel: { ...label, formatter: number, hideOverlap: true } };
  };
  const localized: Part = { ...(option as Part) };
  for (const key of ['xAxis', 'yAxis'] as const) {
    if (option[key] !== undefined) {
      const axes = asList(option[key]).map((part) =>
        axis(part, key === 'xAxis' ? 'category' : 'value'),
      );
      localized[key] = Array.isArray(option[key]) ? axes : axes[0];
    }
  }
  if (option.visualMap !== undefined) {
    const maps = asList(option.visualMap).map((map) =>
      map.formatter === undefined
        ? {
            ...map,
            formatter: (value: unknown, upper?: unknown) =>
              upper === undefined ? number(value) : `${number(value)} – ${number(upper)}`,
          }
        : map,
    );
    localized.visualMap = Array.isArray(option.visualMap) ? maps : maps[0];
  }
  if (isPart(option.tooltip)) {
    const tooltip = option.tooltip;
    if (tooltip.formatter === undefined && tooltip.valueFormatter === undefined) {
      localized.tooltip = { ...tooltip, valueFormatter: number };
    }
  }
  return localized as ChartOption;
}
