import { Anchor, Group, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  ERROR_LEVELS,
  loadFailureMatrix,
  type MatrixType,
  NO_ERROR_FILTER,
} from '../../api/analytics-failures';
import { ModelChartCard, useAnalyticsQuery, useChartContext } from '../../components/charts';
import { useDrillDown } from '../../components/drill/useDrillDown';
import { AnalysisPage } from '../../components/page/AnalysisPage';
import { cellText } from '../../components/tables/cellText';
import { type LocalSortKeys, useLocalSort } from '../../components/tables/localSort';
import { type PagedColumn, PagedTable } from '../../components/tables/PagedTable';
import { type ChartElement, errorHistoryTarget, matrixCellTarget } from '../../lib/drillDown';
import { LevelBadge } from './LevelBadge';
import { LEVEL_KEYS } from './levels';
import { matrixChart } from './matrixCharts';

// The table's columns in the browser (the server sends every error type, most frequent first).
const ERROR_TYPE_SORTS: LocalSortKeys<MatrixType> = {
  errorType: { value: (type) => type.errorType, ascendingFirst: true },
  count: { value: (type) => type.count },
  firstSeen: { value: (type) => Date.parse(type.firstSeen) },
  lastSeen: { value: (type) => Date.parse(type.lastSeen) },
};

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
  const sorted = useLocalSort(data?.errorTypes, ERROR_TYPE_SORTS, '-count');
  const language = i18n.language;
  const columns: PagedColumn<MatrixType>[] = [
    {
      key: 'errorType',
      label: t('failures.errorType'),
      sortKey: 'errorType',
      render: (type) => (
        <Anchor
          component={Link}
          to={locationOf(errorHistoryTarget({ errorType: type.errorType })) ?? ''}
          size="sm"
          fw={500}
        >
          {type.errorType}
        </Anchor>
      ),
    },
    {
      key: 'count',
      label: t('failures.count'),
      sortKey: 'count',
      align: 'right',
      render: (type) => cellText(type.count, 'integer', language),
    },
    {
      key: 'levels',
      label: t('failures.levels'),
      render: (type) => (
        <Group gap={4} wrap="nowrap">
          {ERROR_LEVELS.filter((level) => type.levels[LEVEL_KEYS[level]] > 0).map((level) => (
            <LevelBadge key={level} level={level}>
              {' '}
              {cellText(type.levels[LEVEL_KEYS[level]], 'integer', language)}
            </LevelBadge>
          ))}
        </Group>
      ),
    },
    {
      key: 'firstSeen',
      label: t('failures.firstSeen'),
      sortKey: 'firstSeen',
      render: (type) => cellText(type.firstSeen, 'dateTime', language, ctx.timeZone),
    },
    {
      key: 'lastSeen',
      label: t('failures.lastSeen'),
      sortKey: 'lastSeen',
      render: (type) => cellText(type.lastSeen, 'dateTime', language, ctx.timeZone),
    },
  ];
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
          <PagedTable
            testId="error-types-table"
            columns={columns}
            rows={sorted.rows}
            sort={sorted.sort}
            onSort={sorted.onSort}
            rowKey={(type) => type.errorType}
            rowTestId={(type) => `error-type-row-${type.errorType}`}
          />
        )}
      </Stack>
    </AnalysisPage>
  );
}
