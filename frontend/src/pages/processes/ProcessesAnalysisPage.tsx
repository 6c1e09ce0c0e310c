import { SimpleGrid, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { loadProcesses } from '../../api/analytics-processes';
import {
  KpiTile,
  ModelChartCard,
  useAnalyticsQuery,
  useChartContext,
} from '../../components/charts';
import { AnalysisPage } from '../../components/page/AnalysisPage';
import {
  type ChartElement,
  cycleBarTarget,
  pageTileTarget,
  vehicleOrdersTarget,
  vehicleOutcomeTarget,
} from '../../lib/drillDown';
import { ApproximateNote } from './ApproximateNote';
import { processesApproximate } from './approximate';
import {
  cycleHistogramChart,
  cyclePercentilesChart,
  histogramBuckets,
  outcomesChart,
} from './processesCharts';
import { processTileModels } from './processTiles';

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
  // A cycle-time bar to the finished orders in its bucket, workflow by workflow.
  const cycleDrill = useMemo(() => {
    const buckets = data ? histogramBuckets(data.fleet) : [];
    return { element: (element: ChartElement) => cycleBarTarget(element, { buckets }) };
  }, [data]);
  const outcomes = useMemo(() => data && outcomesChart(data.entries, ctx), [data, ctx]);
  const percentiles = useMemo(() => data && cyclePercentilesChart(data.entries, ctx), [data, ctx]);
  // Drill-down: a vehicle's outcome segment to its orders of that outcome, its percentiles
  // to its orders (its workflows).
  const outcomeDrill = useMemo(
    () => data && { element: (e: ChartElement) => vehicleOutcomeTarget(data.entries, e) },
    [data],
  );
  const vehicleDrill = useMemo(
    () => data && { element: (e: ChartElement) => vehicleOrdersTarget(data.entries, e) },
    [data],
  );
  const exportScope = { page: 'processesAnalysis', from: scope.from, to: scope.to };
  const noOrders = (d: NonNullable<typeof data>) =>
    d.fleet.current.outcomes.total === 0 && d.fleet.previous.outcomes.total === 0;
  const tiles = useMemo(
    () =>
      data &&
      processTileModels(data.fleet.current, data.fleet.previous, ctx.language, t('charts.noValue')),
    [data, ctx.language, t],
  );
  return (
    <AnalysisPage topic="processesAnalysis">
      <Stack gap="md">
        {tiles && (
          <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} spacing="sm" data-testid="processes-kpis">
            {tiles.map((tile) => (
              <KpiTile
                key={tile.name}
                name={tile.name}
                label={t(tile.labelKey)}
                drill={pageTileTarget(tile.name)}
                {...tile.texts}
              />
            ))}
          </SimpleGrid>
        )}
        <ApproximateNote shown={data !== undefined && processesApproximate(data)} />
        <ModelChartCard
          name="cycle-histogram"
          title={t('processes.cycleHistogram')}
          status={statusFor(
            (d) => d.fleet.current.cycle.count === 0 && d.fleet.previous.cycle.count === 0,
          )}
          model={histogram}
          drill={cycleDrill}
          exportScope={exportScope}
        />
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <ModelChartCard
            name="outcomes"
            title={t('processes.outcomes')}
            status={statusFor(noOrders)}
            model={outcomes}
            drill={outcomeDrill}
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
