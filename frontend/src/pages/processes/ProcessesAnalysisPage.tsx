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
import { kpiTextsIn } from './kpiValues';
import { cycleHistogramChart, cyclePercentilesChart, outcomesChart } from './processesCharts';

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
  const exportScope = { page: 'processesAnalysis', from: scope.from, to: scope.to };
  const noOrders = (d: NonNullable<typeof data>) =>
    d.fleet.current.outcomes.total === 0 && d.fleet.previous.outcomes.total === 0;
  const current = data?.fleet.current;
  const previous = data?.fleet.previous;
  const kpi = kpiTextsIn(ctx.language);
  return (
    <AnalysisPage topic="processesAnalysis">
      <Stack gap="md">
        {current && previous && (
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm" data-testid="processes-kpis">
            <KpiTile
              name="cycle-p50"
              label={t('processes.cycleP50')}
              {...kpi(current.cycle.p50Seconds, previous.cycle.p50Seconds, 'duration', false)}
            />
            <KpiTile
              name="cycle-p90"
              label={t('processes.cycleP90')}
              {...kpi(current.cycle.p90Seconds, previous.cycle.p90Seconds, 'duration', false)}
            />
            <KpiTile
              name="cycle-p95"
              label={t('processes.cycleP95')}
              {...kpi(current.cycle.p95Seconds, previous.cycle.p95Seconds, 'duration', false)}
            />
            <KpiTile
              name="cycle-max"
              label={t('processes.cycleMax')}
              {...kpi(current.cycle.maxSeconds, previous.cycle.maxSeconds, 'duration', false)}
            />
            <KpiTile
              name="success-rate"
              label={t('processes.successRate')}
              {...kpi(current.outcomes.successRate, previous.outcomes.successRate, 'share', true)}
            />
            <KpiTile
              name="mean-waiting"
              label={t('processes.meanWaiting')}
              {...kpi(
                current.times.meanWaitingSeconds,
                previous.times.meanWaitingSeconds,
                'duration',
                false,
              )}
            />
          </SimpleGrid>
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
            exportScope={exportScope}
          />
          <ModelChartCard
            name="cycle-percentiles"
            title={t('processes.cyclePercentiles')}
            status={statusFor(noOrders)}
            model={percentiles}
            exportScope={exportScope}
          />
        </SimpleGrid>
      </Stack>
    </AnalysisPage>
  );
}
