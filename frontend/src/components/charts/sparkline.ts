import type { ChartOption, ChartTheme } from './types';

/** A tiny line without axes for a KPI tile; gaps where a bucket has no value. */
export function sparklineOption({
  labels,
  values,
  color,
  theme,
  formatValue,
}: {
  labels: string[];
  values: Array<number | null>;
  color: string;
  theme: ChartTheme;
  formatValue: (value: number) => string;
}): ChartOption {
  return {
    animation: false,
    grid: { left: 2, right: 2, top: 4, bottom: 2 },
    xAxis: { type: 'category', data: labels, show: false, boundaryGap: false },
    yAxis: { type: 'value', show: false, scale: true },
    tooltip: {
      trigger: 'axis',
      confine: true,
      backgroundColor: theme.tooltipBackground,
      textStyle: { color: theme.text, fontSize: 11 },
      valueFormatter: (value: unknown) => (typeof value === 'number' ? formatValue(value) : '–'),
    },
    series: [
      {
        type: 'line',
        data: values,
        showSymbol: values.length === 1,
        smooth: false,
        connectNulls: false,
        lineStyle: { color, width: 2 },
        itemStyle: { color },
        areaStyle: { color, opacity: 0.12 },
      },
    ],
  };
}
