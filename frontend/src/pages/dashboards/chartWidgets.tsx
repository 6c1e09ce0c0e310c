import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { loadProductivity } from '../../api/analytics';
import { loadBattery } from '../../api/analytics-battery';
import { loadFailures, NO_ERROR_FILTER } from '../../api/analytics-failures';
import type { AnalysisScope } from '../../api/analytics-processes';
import { loadProcesses } from '../../api/analytics-processes';
import {
  type ChartContext,
  type ChartDrill,
  type ChartModel,
  chartStatus,
  ModelChartCard,
  reportedIn,
  useAnalyticsQuery,
  useChartContext,
} from '../../components/charts';
import { useAnalysisFilters } from '../../components/filters/filtersContext';
import {
  type ChartElement,
  chargeLineTarget,
  chargeRowTarget,
  heatmapCellTarget,
  heatmapTarget,
  itemAt,
  paretoTarget,
  statusboardTarget,
  vehicleOutcomeTarget,
  vehicleStateTarget,
} from '../../lib/drillDown';
import { chargeChart } from '../battery/batteryCharts';
import { failuresReported, paretoChart } from '../failures/analysisCharts';
import { outcomesChart } from '../processes/processesCharts';
import {
  hasNoData,
  heatmapIsEmpty,
  ordersHeatmapChart,
  timeInStateChart,
} from '../productivity/analysisCharts';
import { DASHBOARD_CHART_TITLES, type DashboardChartKey } from './dashboardLayout';
import { fleetStateChart } from './fleetStateChart';
import { LiveIndicator } from './StatusTiles';
import { type Board, orderedCounts } from './statusboardModel';
import { useStatusboard } from './useStatusboard';

/** Every small chart is as high, so that a row of them lines up. */
const SMALL_HEIGHT = 300;

/**
 * One of an analysis page's charts as the page draws it: the same call (and cache entry),
 * transform, empty rule and drill-down.
 */
interface ChartSource<T> {
  /** The page's query: its name, loader and extra key, so both share one cache entry. */
  query: string;
  load: (scope: AnalysisScope) => Promise<T>;
  extraKey?: readonly unknown[];
  isEmpty: (data: T) => boolean;
  /** Where the answer tells: whether the vehicles reported in the period (empty: "nothing happened"). */
  reported?: (data: T) => boolean;
  model: (data: T, ctx: ChartContext) => ChartModel;
  drill: (data: T) => ChartDrill;
}

export interface WidgetChartProps {
  name: DashboardChartKey;
  /** The edit controls for the card's header (move, remove), while the layout is edited. */
  actions: ReactNode;
  /** No drill-down while the layout is edited. */
  editing: boolean;
}

function SourceChart<T>({
  source,
  name,
  actions,
  editing,
}: WidgetChartProps & { source: ChartSource<T> }) {
  const { t } = useTranslation();
  const ctx = useChartContext();
  const { query, scope, statusFor } = useAnalyticsQuery(source.query, source.load, {
    extraKey: source.extraKey,
  });
  const data = query.data;
  const model = useMemo(() => data && source.model(data, ctx), [data, ctx, source]);
  const drill = useMemo(() => data && source.drill(data), [data, source]);
  return (
    <ModelChartCard
      name={name}
      title={t(DASHBOARD_CHART_TITLES[name])}
      status={statusFor(source.isEmpty, source.reported)}
      model={model}
      drill={editing ? undefined : drill}
      actions={actions}
      exportScope={{ page: 'dashboard', from: scope.from, to: scope.to }}
      height={SMALL_HEIGHT}
    />
  );
}

type ChartRender = (props: WidgetChartProps) => ReactNode;

function chartWidget<T>(source: ChartSource<T>): ChartRender {
  return (props) => <SourceChart source={source} {...props} />;
}

/** The fleet's vehicles per state now, live from the statusboard's stream; opens the statusboard. */
function FleetNowChart({ name, actions, editing }: WidgetChartProps) {
  const { t } = useTranslation();
  const ctx = useChartContext();
  const filters = useAnalysisFilters();
  const hasVehicles = filters.vehicles.length > 0;
  const { board, live, snapshot } = useStatusboard(filters, filters.ready && hasVehicles);
  const model = useMemo(() => board && fleetStateChart(board, ctx), [board, ctx]);
  const drill = useMemo(() => (board ? fleetNowDrill(board) : undefined), [board]);
  // A board (snapshot or stream) is shown as it is; without one, the snapshot's call tells.
  const status = chartStatus({
    isPending: !board && (!filters.ready || hasVehicles),
    error: board ? null : snapshot.error,
    isEmpty: filters.ready && !hasVehicles,
    emptyReason: 'noVehicles',
    onRetry: () => void snapshot.refetch(),
  });
  return (
    <ModelChartCard
      name={name}
      title={t(DASHBOARD_CHART_TITLES[name])}
      status={status}
      model={model}
      drill={editing ? undefined : drill}
      actions={
        <>
          {hasVehicles && <LiveIndicator status={live} large={false} />}
          {actions}
        </>
      }
      exportScope={{ page: 'dashboard', from: filters.from, to: filters.to }}
      height={SMALL_HEIGHT}
    />
  );
}

/** A state's bar or row: the statusboard showing the vehicles in that state. */
function fleetNowDrill(board: Board): ChartDrill {
  const states = orderedCounts(board).map(({ state }) => state);
  return {
    element: (e: ChartElement) => statusboardTarget(itemAt(states, e)),
    row: (index: number) => statusboardTarget(states[index] ?? null),
  };
}

/** Each chart a dashboard can hold, drawn as on its page. */
const DASHBOARD_CHARTS: Record<DashboardChartKey, ChartRender> = {
  fleetNow: (props) => <FleetNowChart {...props} />,
  timeInState: chartWidget({
    query: 'productivity',
    load: loadProductivity,
    isEmpty: hasNoData,
    model: timeInStateChart,
    drill: (data) => ({ element: (e: ChartElement) => vehicleStateTarget(data.entries, e) }),
  }),
  ordersHeatmap: chartWidget({
    query: 'productivity',
    load: loadProductivity,
    isEmpty: (data) => heatmapIsEmpty(data.heatmap),
    reported: (data) => reportedIn(data.fleet.kpis),
    model: (data, ctx) => ordersHeatmapChart(data.heatmap, ctx),
    drill: () => ({ element: heatmapCellTarget, row: (weekday: number) => heatmapTarget(weekday) }),
  }),
  outcomes: chartWidget({
    query: 'processes',
    load: loadProcesses,
    isEmpty: (data) =>
      data.fleet.current.outcomes.total === 0 && data.fleet.previous.outcomes.total === 0,
    model: (data, ctx) => outcomesChart(data.entries, ctx),
    drill: (data) => ({ element: (e: ChartElement) => vehicleOutcomeTarget(data.entries, e) }),
  }),
  errorPareto: chartWidget({
    query: 'failures',
    // As failures/analysis asks: no error type or level filter.
    load: (scope) => loadFailures(scope, NO_ERROR_FILTER),
    extraKey: [null, null],
    isEmpty: (data) => data.paretoByCount.length === 0,
    reported: failuresReported,
    model: (data, ctx) => paretoChart(data.paretoByCount, 'count', ctx),
    drill: (data) => ({ element: (e: ChartElement) => paretoTarget(data.paretoByCount, e) }),
  }),
  charge: chartWidget({
    query: 'battery',
    load: loadBattery,
    isEmpty: (data) => data.series.every((series) => series.points.length === 0),
    model: chargeChart,
    drill: (data) => ({
      element: (e: ChartElement) => chargeLineTarget(data.series, e),
      row: (index: number) => chargeRowTarget(data.series, index),
    }),
  }),
};

/**
 * A small chart of an analysis page, drawn as there: the dashboard loads this module (and
 * the charting library) only when the layout holds a chart.
 */
export default function DashboardChart(props: WidgetChartProps) {
  return DASHBOARD_CHARTS[props.name](props);
}
