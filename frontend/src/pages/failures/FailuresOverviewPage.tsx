import { Anchor, Group, Stack, Table } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ERROR_LEVELS, loadFailureMatrix, NO_ERROR_FILTER } from '../../api/analytics-failures';
import { ModelChartCard, useAnalyticsQuery, useChartContext } from '../../components/charts';
import { useDrillDown } from '../../components/drill/useDrillDown';
import { AnalysisPage } from '../../components/page/AnalysisPage';
import { cellText } from '../../components/tables/cellText';
import { type ChartElement, errorHistoryTarget, matrixCellTarget } from '../../lib/drillDown';
import { LevelBadge } from './LevelBadge';
import { LEVEL_KEYS } from './levels';
import { matrixChart } from './matrixCharts';

/** failures/overview: error types × vehicles (counts on a colour scale), levels, first and last seen. */
export default function FailuresOverviewPage() {
  const { t, i18n } = useTranslation();
  const ctx = useChartContext();
  const { query, scope, statusFor } = useAnalyticsQuery(
    'failureMatrix',
    (s) => loadFailureMatrix(s, NO_ERROR_FILTER),
    { extraKey: [null, null] },
  );
  const data = query.data;
  const model = useMemo(() => data && matrixChart(data, ctx), [data, ctx]);
  // Drill-down: a cell to the episodes of that type on that vehicle, a type to its episodes.
  const drill = useMemo(
    () =>
      data && {
        element: (e: ChartElement) => matrixCellTarget(e),
        row: (index: number) => {
          const type = data.errorTypes[index];
          return type ? errorHistoryTarget({ errorType: type.errorType }) : null;
        },
      },
    [data],
  );
  const { locationOf } = useDrillDown();
  const height = Math.max(260, 48 + (data?.errorTypes.length ?? 0) * 34);
  return (
    <AnalysisPage topic="failuresOverview">
      <Stack gap="md">
        <ModelChartCard
          name="failure-matrix"
          title={t('failures.matrixTitle')}
          status={statusFor((d) => d.cells.length === 0)}
          model={model}
          drill={drill}
          exportScope={{ page: 'failuresOverview', from: scope.from, to: scope.to }}
          height={height}
        />
        {data && data.errorTypes.length > 0 && (
          <Table.ScrollContainer minWidth={640}>
            <Table striped data-testid="error-types-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('failures.errorType')}</Table.Th>
                  <Table.Th ta="right">{t('failures.count')}</Table.Th>
                  <Table.Th>{t('failures.levels')}</Table.Th>
                  <Table.Th>{t('failures.firstSeen')}</Table.Th>
                  <Table.Th>{t('failures.lastSeen')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.errorTypes.map((type) => (
                  <Table.Tr key={type.errorType} data-testid={`error-type-row-${type.errorType}`}>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={locationOf(errorHistoryTarget({ errorType: type.errorType })) ?? ''}
                        size="sm"
                        fw={500}
                      >
                        {type.errorType}
                      </Anchor>
                    </Table.Td>
                    <Table.Td ta="right">{cellText(type.count, 'integer', i18n.language)}</Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        {ERROR_LEVELS.filter((level) => type.levels[LEVEL_KEYS[level]] > 0).map(
                          (level) => (
                            <LevelBadge key={level} level={level}>
                              {' '}
                              {cellText(type.levels[LEVEL_KEYS[level]], 'integer', i18n.language)}
                            </LevelBadge>
                          ),
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {cellText(type.firstSeen, 'dateTime', i18n.language, ctx.timeZone)}
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {cellText(type.lastSeen, 'dateTime', i18n.language, ctx.timeZone)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </AnalysisPage>
  );
}
