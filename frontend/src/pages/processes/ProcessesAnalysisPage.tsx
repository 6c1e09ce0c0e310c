import { SimpleGrid, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { loadProcesses, type ProcessFigures } from '../../api/analytics-processes';
import {
  ComparedKpiTiles,
  type ComparedTile,
  ModelChartCard,
  useAnalyticsQuery,
  useChartContext,
} from '../../components/charts';
import { AnalysisPage } from '../../components/page/AnalysisPage';
import { type ChartElement, pageTileTarget, vehicleOrdersTarget } from '../../lib/drillDown';
import { cycleHistogramChart, cyclePercentilesChart, outcomesChart } from './processesCharts';

const PROCESS_TILES: readonly ComparedTile<ProcessFigures>[] = [
  {
    name: 'cycle-p50',
    labelKey: 'processes.cycleP50',
    pick: (f) => f.cycle.p50Seconds,
    format: 'duration',
    higherIsBetter: false,
  },
  {
    name: 'cycle-p90',
    labelKey: 'processes.cycleP90',
    pick: (f) => f.cycle.p90Seconds,
    format: 'duration',
    higherIsBetter: false,
  },
  {
    name: 'cycle-p95',
    labelKey: 'processes.cycleP95',
    pick: (f) => f.cycle.p95Seconds,
    format: 'duration',
    higherIsBetter: false,
  },
  {
    name: 'cycle-max',
    labelKey: 'processes.cycleMax',
    pick: (f) => f.cycle.maxSeconds,
    format: 'duration',
    higherIsBetter: false,
  },
  {
    name: 'success-rate',
    labelKey: 'processes.successRate',
    pick: (f) => f.outcomes.successRate,
    format: 'share',
    higherIsBetter: true,
  },
  {
    name: 'mean-waiting',
    labelKey: 'processes.meanWaiting',
    pick: (f) => f.times.meanWaitingSeconds,
    format: 'duration',
    higherIsBetter: false,
  },
];

/** processes/analysis: cycle-time distribution and percentiles, outcomes, paused and waiting time. */
export default function ProcessesAnalysisPage() {
  const { t } = useTranslation();
  const ctx = useChartContext();
  const { query, scope, statusFor } = useAnalyticsQuery('processes', loadProcesses);
  const data = query.data;
  const histogram = useMemo(
    () => data && cycleHistogramChart({ histogramEdges: data.histogramEdges, ...data.fleet }, ctx),
    [data, ctx],
  );
  const outcomes = useMemo(() => data && outcomesChart(data.entries, ctx), [data, ctx]);
  const percentiles = useMemo(() => data && cyclePercentilesChart(data.entries, ctx), [data, ctx]);
  // Drill-down: a vehicle's outcomes or percentiles to its orders (its workflows).
  const vehicleDrill = useMemo(
    () => data && { element: (e: ChartElement) => vehicleOrdersTarget(data.entries, e) },
    [data],
  );
  const exportScope = { page: 'processesAnalysis', from: scope.from, to: scope.to };
  const noOrders = (d: NonNullable<typeof data>) =>
    d.fleet.current.outcomes.total === 0 && d.fleet.previous.outcomes.total === 0;
  const current = data?.fleet.current;
  const previous = data?.fleet.previous;
  return (
    <AnalysisPage topic="processesAnalysis">
      <Stack gap="md">
        {current && previous && (
          <ComparedKpiTiles
            testId="processes-kpis"
            tiles={PROCESS_TILES}
            current={current}
            previous={previous}
            drillOf={pageTileTarget}
          />
        )}
        <ModelChartCard
          name="cycle-histogram"
          title={t('processes.cycleHistogram')}
          status={statusFor(
            (d) => d.fleet.current.cycle.count === 0 && d.fleet.previous.cycle.count === 0,
          )}
          model={histogram}
          exportScope={exportScope}
        />
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <ModelChartCard
            name="outcomes"
            title={t('processes.outcomes')}
            status={statusFor(noOrders)}
            model={outcomes}
            drill={vehicleDrill}
            exportScope={exportScope}
          />
          <ModelChartCard
            name="cycle-percentiles"
            title={t('processes.cyclePercentiles')}
            status={statusFor(noOrders)}
            model={percentiles}
            drill={vehicleDrill}
            exportScope={exportScope}
          />
        </SimpleGrid>
      </Stack>
    </AnalysisPage>
  );
}
