import { Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { loadProductivityHistory } from '../../api/analytics';
import { ModelChartCard, useAnalyticsQuery, useChartContext } from '../../components/charts';
import { AnalysisPage } from '../../components/page/AnalysisPage';
import { type ChartElement, historyPointTarget } from '../../lib/drillDown';
import { historyChart, historyIsEmpty } from './historyCharts';
import { PRODUCTIVITY_KPIS } from './kpis';

const PAGE = 'productivityHistory';

/** productivity/history: every productivity KPI over the period's buckets, previous period dashed. */
export default function ProductivityHistoryPage() {
  const { t } = useTranslation();
  const ctx = useChartContext();
  const { query, filters, statusFor } = useAnalyticsQuery(
    'productivityHistory',
    loadProductivityHistory,
  );
  const data = query.data;
  const charts = useMemo(
    () =>
      data
        ? PRODUCTIVITY_KPIS.map((kpi) => ({ kpi, model: historyChart(data, kpi.key, ctx) }))
        : null,
    [data, ctx],
  );
  const status = statusFor(historyIsEmpty);
  // Drill-down: a point (or a row) to the productivity analysis of that day, week or month.
  const drill = useMemo(
    () => data && { element: (e: ChartElement) => historyPointTarget(data, e) },
    [data],
  );
  const exportScope = { page: PAGE, from: filters.from, to: filters.to };

  return (
    <AnalysisPage topic={PAGE}>
      <Stack gap="md">
        {data && (
          <Group gap="xs" data-testid="history-granularity" data-granularity={data.granularity}>
            <Text size="sm" c="dimmed">
              {t('productivity.granularityLabel')}
            </Text>
            <Badge variant="light">{t(`productivity.granularity.${data.granularity}`)}</Badge>
            <Text size="sm" c="dimmed">
              {t('productivity.previousDashed')}
            </Text>
            {data.buckets.some((bucket) => bucket.partial) && (
              <Text size="sm" c="dimmed" data-testid="history-partial-hint">
                {t('productivity.partialDashed')}
              </Text>
            )}
          </Group>
        )}
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          {PRODUCTIVITY_KPIS.map((kpi, index) => {
            const model = charts?.[index]?.model;
            const title = t(`productivity.kpi.${kpi.key}`);
            return (
              <ModelChartCard
                key={kpi.key}
                name={`history-${kpi.key}`}
                title={title}
                status={status}
                model={model}
                drill={drill}
                exportScope={exportScope}
                height={280}
              />
            );
          })}
        </SimpleGrid>
      </Stack>
    </AnalysisPage>
  );
}
