import { ChartCard, type ChartCardProps } from './ChartCard';
import { EChart } from './EChart';
import type { ChartModel } from './types';

interface ModelChartCardProps extends Omit<ChartCardProps, 'table' | 'children'> {
  /** A pure transform's result; undefined or null while the data is loading. */
  model: ChartModel | null | undefined;
}

/** A ChartCard showing a chart model: its option as the chart, its table as table view and CSV. */
export function ModelChartCard({ model, height, title, ...card }: ModelChartCardProps) {
  return (
    <ChartCard {...card} title={title} height={height} table={model?.table}>
      {model && <EChart option={model.option} height={height} ariaLabel={title} />}
    </ChartCard>
  );
}
