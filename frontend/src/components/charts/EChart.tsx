import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { EChartProps } from './EChartCanvas';

// Lazy: ECharts (about 214 KB gzip even tree-shaken) loads with the first chart, not the app.
const EChartCanvas = lazy(() => import('./EChartCanvas'));

/** An ECharts chart; shows a skeleton while the chart library loads. */
export function EChart(props: EChartProps) {
  const height = props.height ?? 320;
  return (
    <Suspense fallback={<Skeleton height={height} radius="md" />}>
      <EChartCanvas {...props} />
    </Suspense>
  );
}

export type { EChartProps };
