import { useCallback } from 'react';
import type { ChartElement, DrillTarget } from '../../lib/drillDown';
import { useDrillDown } from '../drill/useDrillDown';
import { ChartCard, type ChartCardProps } from './ChartCard';
import { EChart, type EChartProps } from './EChart';
import type { ChartModel } from './types';

/** Where a chart's elements and table rows lead (pure functions of the chart's data). */
export interface ChartDrill {
  /** A clicked element (bar, cell, point). */
  element: (element: ChartElement) => DrillTarget | null;
  /** A row of the table view; by default the element of the same index. */
  row?: (index: number) => DrillTarget | null;
}

interface ModelChartCardProps extends Omit<ChartCardProps, 'table' | 'children' | 'rowLink'> {
  /** A pure transform's result; undefined or null while the data is loading. */
  model: ChartModel | null | undefined;
  /** Drill-down: chart elements and table rows open the list behind them. */
  drill?: ChartDrill;
}

/** A ChartCard showing a chart model: its option as the chart, its table as table view and CSV. */
export function ModelChartCard({ drill, ...props }: ModelChartCardProps) {
  // Only a drillable chart needs the router (and the view it drills from).
  return drill ? <DrillableChartCard {...props} drill={drill} /> : <PlainChartCard {...props} />;
}

/** The chart of a model (drawn to scale, time ticks in the sites' zone), named as its card. */
function chartOf(model: ChartModel, title: string, height: ChartCardProps['height']): EChartProps {
  return {
    option: model.option,
    height,
    scale: model.scale,
    timeTicks: model.timeTicks,
    ariaLabel: title,
  };
}

function PlainChartCard({ model, height, title, ...card }: Omit<ModelChartCardProps, 'drill'>) {
  return (
    <ChartCard {...card} title={title} height={height} table={model?.table}>
      {model && <EChart {...chartOf(model, title, height)} />}
    </ChartCard>
  );
}

function DrillableChartCard({
  model,
  height,
  title,
  drill,
  ...card
}: ModelChartCardProps & { drill: ChartDrill }) {
  const { locationOf, open } = useDrillDown();
  const onElementClick = useCallback(
    (element: ChartElement) => {
      const target = drill.element(element);
      if (target) {
        open(target);
      }
    },
    [drill, open],
  );
  const rowLink = (index: number) => {
    const target = drill.row ? drill.row(index) : drill.element({ dataIndex: index });
    return target ? locationOf(target) : null;
  };
  return (
    <ChartCard {...card} title={title} height={height} table={model?.table} rowLink={rowLink}>
      {model && <EChart {...chartOf(model, title, height)} onElementClick={onElementClick} />}
    </ChartCard>
  );
}
