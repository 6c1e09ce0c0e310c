import { SimpleGrid, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { loadFailures } from '../../api/analytics-failures';
import {
  ChartCard,
  EChart,
  KpiTile,
  useAnalyticsQuery,
  useChartContext,
} from '../../components/charts';
import { AnalysisPage } from '../../components/page/AnalysisPage';
import { kpiTextsIn } from '../processes/kpiValues';
import { paretoChart, reliabilityChart } from './analysisCharts';

/** failures/analysis: Pareto by count and downtime, MTBF/MTTR, errors per 1,000 orders. */
export default function FailuresAnalysisPage() {
  const { t } = useTranslation();
  const ctx = useChartContext();
  const { query, scope, statusFor } = useAnalyticsQuery(
    'failures',
    (s) => loadFailures(s, { errorType: null, level: null }),
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
  const exportScope = { page: 'failuresAnalysis', from: scope.from, to: scope.to };
  const current = data?.fleet.current;
  const previous = data?.fleet.previous;
  const kpi = kpiTextsIn(ctx.language);
  return (
    <AnalysisPage topic="failuresAnalysis">
      <Stack gap="md">
        {current && previous && (
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm" data-testid="failures-kpis">
            <KpiTile
              name="mtbf"
              label={t('failures.mtbf')}
              {...kpi(current.mtbfSeconds, previous.mtbfSeconds, 'duration', true)}
            />
            <KpiTile
              name="mttr"
              label={t('failures.mttr')}
              {...kpi(current.mttrSeconds, previous.mttrSeconds, 'duration', false)}
            />
            <KpiTile
              name="errors-per-1000"
              label={t('failures.errorsPer1000')}
              {...kpi(current.errorsPer1000Orders, previous.errorsPer1000Orders, 'decimal', false)}
            />
            <KpiTile
              name="fatal"
              label={t('failures.stopEpisodes')}
              {...kpi(current.stopEpisodes, previous.stopEpisodes, 'integer', false)}
            />
            <KpiTile
              name="fatal-per-1000"
              label={t('failures.stopsPer1000')}
              {...kpi(
                current.stopErrorsPer1000Orders,
                previous.stopErrorsPer1000Orders,
                'decimal',
                false,
              )}
            />
            <KpiTile
              name="warnings"
              label={t('failures.warnings')}
              {...kpi(current.warnings, previous.warnings, 'integer', false)}
            />
            <KpiTile
              name="warnings-per-1000"
              label={t('failures.warningsPer1000')}
              {...kpi(
                current.warningsPer1000Orders,
                previous.warningsPer1000Orders,
                'decimal',
                false,
              )}
            />
            <KpiTile
              name="downtime"
              label={t('failures.downtime')}
              {...kpi(current.downtimeSeconds, previous.downtimeSeconds, 'duration', false)}
            />
          </SimpleGrid>
        )}
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <ChartCard
            name="pareto-count"
            title={t('failures.paretoByCount')}
            status={statusFor((d) => d.paretoByCount.length === 0)}
            table={byCount?.table}
            exportScope={exportScope}
          >
            {byCount && <EChart option={byCount.option} ariaLabel={t('failures.paretoByCount')} />}
          </ChartCard>
          <ChartCard
            name="pareto-downtime"
            title={t('failures.paretoByDowntime')}
            status={statusFor((d) => d.paretoByDowntime.length === 0)}
            table={byDowntime?.table}
            exportScope={exportScope}
          >
            {byDowntime && (
              <EChart option={byDowntime.option} ariaLabel={t('failures.paretoByDowntime')} />
            )}
          </ChartCard>
        </SimpleGrid>
        <ChartCard
          name="reliability"
          title={t('failures.reliability')}
          status={statusFor((d) => d.fleet.current.episodes === 0)}
          table={reliability?.table}
          exportScope={exportScope}
        >
          {reliability && (
            <EChart option={reliability.option} ariaLabel={t('failures.reliability')} />
          )}
        </ChartCard>
      </Stack>
    </AnalysisPage>
  );
}
