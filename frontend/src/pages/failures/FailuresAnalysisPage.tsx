import { SimpleGrid, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  loadFailures,
  NO_ERROR_FILTER,
  type ReliabilityFigures,
} from '../../api/analytics-failures';
import {
  ComparedKpiTiles,
  type ComparedTile,
  ModelChartCard,
  useAnalyticsQuery,
  useChartContext,
} from '../../components/charts';
import { comparableFigures } from '../../components/charts/kpiTexts';
import { AnalysisPage } from '../../components/page/AnalysisPage';
import {
  type ChartElement,
  pageTileTarget,
  paretoTarget,
  vehicleStopsTarget,
} from '../../lib/drillDown';
import { failuresReported, paretoChart, reliabilityBars, reliabilityChart } from './analysisCharts';

const FAILURE_TILES: readonly ComparedTile<ReliabilityFigures>[] = [
  {
    name: 'mtbf',
    labelKey: 'failures.mtbf',
    pick: (f) => f.mtbfSeconds,
    format: 'duration',
    higherIsBetter: true,
  },
  {
    name: 'mttr',
    labelKey: 'failures.mttr',
    pick: (f) => f.mttrSeconds,
    format: 'duration',
    higherIsBetter: false,
  },
  {
    name: 'errors-per-1000',
    labelKey: 'failures.errorsPer1000',
    pick: (f) => f.errorsPer1000Orders,
    format: 'decimal',
    higherIsBetter: false,
  },
  {
    name: 'fatal',
    labelKey: 'failures.stopEpisodes',
    pick: (f) => f.stopEpisodes,
    format: 'integer',
    higherIsBetter: false,
  },
  {
    name: 'fatal-per-1000',
    labelKey: 'failures.stopsPer1000',
    pick: (f) => f.stopErrorsPer1000Orders,
    format: 'decimal',
    higherIsBetter: false,
  },
  {
    name: 'warnings',
    labelKey: 'failures.warnings',
    pick: (f) => f.warnings,
    format: 'integer',
    higherIsBetter: false,
  },
  {
    name: 'warnings-per-1000',
    labelKey: 'failures.warningsPer1000',
    pick: (f) => f.warningsPer1000Orders,
    format: 'decimal',
    higherIsBetter: false,
  },
  {
    name: 'downtime',
    labelKey: 'failures.downtime',
    pick: (f) => f.downtimeSeconds,
    format: 'duration',
    higherIsBetter: false,
  },
];

/** failures/analysis: Pareto by count and downtime, MTBF/MTTR, errors per 1,000 orders. */
export default function FailuresAnalysisPage() {
  const { t } = useTranslation();
  const ctx = useChartContext();
  const { query, scope, statusFor } = useAnalyticsQuery(
    'failures',
    (s) => loadFailures(s, NO_ERROR_FILTER),
    { extraKey: [null, null] },
  );
  const data = query.data;
  const byCount = useMemo(() => data && paretoChart(data.paretoByCount, 'count', ctx), [data, ctx]);
  const byDowntime = useMemo(
    () => data && paretoChart(data.paretoByDowntime, 'downtime', ctx),
    [data, ctx],
  );
  const reliability = useMemo(
    () => data && reliabilityChart(data.entries, data.fleet, ctx),
    [data, ctx],
  );
  // Drill-down: a Pareto bar to the error history of its type (a level's segment: of that
  // level; downtime: the stop levels), a vehicle's MTBF or MTTR to its stop-level errors.
  const drills = useMemo(
    () =>
      data && {
        count: { element: (e: ChartElement) => paretoTarget(data.paretoByCount, e) },
        downtime: {
          element: (e: ChartElement) => paretoTarget(data.paretoByDowntime, e, 'downtime'),
        },
        reliability: {
          element: (e: ChartElement) =>
            vehicleStopsTarget(reliabilityBars(data.entries, data.fleet), e),
        },
      },
    [data],
  );
  const exportScope = { page: 'failuresAnalysis', from: scope.from, to: scope.to };
  const current = data?.fleet.current;
  const previous = comparableFigures(data?.fleet.previous);
  return (
    <AnalysisPage topic="failuresAnalysis">
      <Stack gap="md">
        {current && (
          <ComparedKpiTiles
            testId="failures-kpis"
            tiles={FAILURE_TILES}
            current={current}
            previous={previous}
            drillOf={pageTileTarget}
          />
        )}
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <ModelChartCard
            name="pareto-count"
            title={t('failures.paretoByCount')}
            status={statusFor((d) => d.paretoByCount.length === 0, failuresReported)}
            model={byCount}
            drill={drills?.count}
            exportScope={exportScope}
          />
          <ModelChartCard
            name="pareto-downtime"
            title={t('failures.paretoByDowntime')}
            status={statusFor((d) => d.paretoByDowntime.length === 0, failuresReported)}
            model={byDowntime}
            drill={drills?.downtime}
            exportScope={exportScope}
          />
        </SimpleGrid>
        <ModelChartCard
          name="reliability"
          title={t('failures.reliability')}
          status={statusFor((d) => d.fleet.current.episodes === 0, failuresReported)}
          model={reliability}
          drill={drills?.reliability}
          exportScope={exportScope}
        />
      </Stack>
    </AnalysisPage>
  );
}
