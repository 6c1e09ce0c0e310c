import { useReducedMotion } from '@mantine/hooks';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChartElement } from '../../lib/drillDown';
import { echarts } from './echarts';
import { localizeOption } from './localize';
import { type PlotScale, scaledFrame } from './plotScale';
import type { ChartOption, TimeTicks } from './types';
import { followZoom } from './zoomTicks';

export interface EChartProps {
  option: ChartOption;
  /** CSS height; the width follows the container (ResizeObserver). */
  height?: number | string;
  /** Read by screen readers instead of the canvas. */
  ariaLabel: string;
  /** A click on a series element (bar, cell, point): the drill-down. */
  onElementClick?: (element: ChartElement) => void;
  /** A map drawn to scale: the height follows the width instead of `height`. */
  scale?: PlotScale;
  /** A time x axis ticked in the sites' zone: its ticks follow a zoom (`dataZoom`). */
  timeTicks?: TimeTicks;
}

/**
 * Minimal ECharts wrapper (echarts-for-react's core entry crashes under Vite 8): init on
 * mount, setOption on change (notMerge, so removed series disappear), resize with the
 * container, dispose on unmount. Charts grow into place unless the system asks for reduced
 * motion (then they are drawn at once, also when live data updates them).
 */
export default function EChartCanvas({
  option,
  height = 320,
  ariaLabel,
  onElementClick,
  scale,
  timeTicks,
}: EChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const chartRef = useRef<echarts.ECharts | null>(null);
  // The latest handler, so the chart's one click listener never goes stale.
  const clickRef = useRef(onElementClick);
  clickRef.current = onElementClick;
  const timeTicksRef = useRef(timeTicks);
  timeTicksRef.current = timeTicks;

  useEffect(() => {
    const container = containerRef.current;
    if (!container) {
      return;
    }
    const chart = echarts.init(container, undefined, { renderer: 'canvas' });
    chartRef.current = chart;
    chart.on('click', (params) => {
      if (params.componentType === 'series') {
        clickRef.current?.({
          seriesIndex: params.seriesIndex,
          dataIndex: params.dataIndex,
          name: params.name,
          value: params.value,
          data: params.data,
        });
      }
    });
    followZoom(chart, () => timeTicksRef.current);
    const observer = new ResizeObserver(() => {
      setWidth(container.clientWidth);
      chart.resize();
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      chart.dispose();
      chartRef.current = null;
    };
  }, []);

  const { i18n } = useTranslation();
  const language = i18n.language;
  const clickable = onElementClick !== undefined;
  // Read at the first render, so that a chart never starts an animation it must drop.
  const reducedMotion = useReducedMotion(undefined, { getInitialValueInEffect: false });
  const frame = useMemo(
    () => (scale && width > 0 ? scaledFrame(width, scale) : null),
    [scale, width],
  );
  useEffect(() => {
    const placed = frame ? { ...option, grid: frame.grid } : option;
    const localized = localizeOption(placed, language);
    chartRef.current?.setOption(
      {
        // ECharts writes its aria-label on the container: its own description is English
        // and lists raw values, so it says the chart's (translated) name; the table view
        // is the accessible reading of the data.
        aria: { enabled: true, label: { description: ariaLabel } },
        // Series elements show the pointer only where a click leads somewhere.
        ...withCursor(localized, clickable ? 'pointer' : 'default'),
        ...(reducedMotion ? { animation: false } : {}),
      },
      { notMerge: true },
    );
  }, [option, frame, language, clickable, reducedMotion, ariaLabel]);

  return (
    <div
      ref={containerRef}
      role="img"
      aria-label={ariaLabel}
      style={{ width: '100%', height: frame?.height ?? height, minWidth: 0 }}
    />
  );
}

function withCursor(option: ChartOption, cursor: string): ChartOption {
  const series = option.series;
  if (!Array.isArray(series)) {
    return option;
  }
  return {
    ...option,
    // A clickable line answers on the line too, not only on its (often hidden) symbols.
    series: series.map((entry: Record<string, unknown>) => ({
      ...entry,
      cursor,
      ...(cursor === 'pointer' && entry.type === 'line' ? { triggerLineEvent: true } : {}),
    })),
  };
}
