import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { echarts } from './echarts';
import { localizeOption } from './localize';
import type { ChartOption } from './types';

export interface EChartProps {
  option: ChartOption;
  /** CSS height; the width follows the container (ResizeObserver). */
  height?: number | string;
  /** Read by screen readers instead of the canvas. */
  ariaLabel: string;
}

/**
 * Minimal ECharts wrapper (echarts-for-react's core entry crashes under Vite 8): init on
 * mount, setOption on change (notMerge, so removed series disappear), resize with the
 * container, dispose on unmount.
 */
export default function EChartCanvas({ option, height = 320, ariaLabel }: EChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) {
      return;
    }
    const chart = echarts.init(container, undefined, { renderer: 'canvas' });
    chartRef.current = chart;
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(container);
    return () => {
      observer.disconnect();
      chart.dispose();
      chartRef.current = null;
    };
  }, []);

  const { i18n } = useTranslation();
  const language = i18n.language;
  useEffect(() => {
    chartRef.current?.setOption(
      { aria: { enabled: true }, ...localizeOption(option, language) },
      { notMerge: true },
    );
  }, [option, language]);

  return (
    <div
      ref={containerRef}
      role="img"
      aria-label={ariaLabel}
      style={{ width: '100%', height, minWidth: 0 }}
    />
  );
}
