import { Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type ActionRow, loadActions, scopeKey } from '../../api/analytics-processes';
import { ModelChartCard, useAnalyticsQuery, useChartContext } from '../../components/charts';
import { DrillLink } from '../../components/drill/DrillLink';
import { ShownOnOpen } from '../../components/drill/ShownOnOpen';
import { useUrlSelection } from '../../components/drill/useUrlSelection';
import { AnalysisPage } from '../../components/page/AnalysisPage';
import { cellText } from '../../components/tables/cellText';
import { type LocalSortKeys, useLocalSort } from '../../components/tables/localSort';
import { type PagedColumn, PagedTable } from '../../components/tables/PagedTable';
import { actionTarget, type ChartElement, DRILL_PARAMS } from '../../lib/drillDown';
import { ApproximateNote } from './ApproximateNote';
import { actionsApproximate, actionsChart } from './actionsCharts';
import { percentileCell } from './approximate';
import { FailedActionsDrilldown } from './FailedActionsDrilldown';

// The table's columns in the browser (the server sends every action type, most frequent first).
const ACTION_SORTS: LocalSortKeys<ActionRow> = {
  actionType: { value: (row) => row.actionType, ascendingFirst: true },
  count: { value: (row) => row.count },
  failed: { value: (row) => row.failed },
  failureRate: { value: (row) => row.failureRate },
  durationP50: { value: (row) => row.durationP50Seconds },
  durationP90: { value: (row) => row.durationP90Seconds },
  meanWait: { value: (row) => row.meanWaitSeconds },
  previousFailureRate: { value: (row) => row.previousFailureRate },
};

/** processes/actions: per action type count, durations, failure rate, waiting; drill-down to failures. */
export default function ProcessesActionsPage() {
  const { t, i18n } = useTranslation();
  const ctx = useChartContext();
  const language = i18n.language;
  // The open action type is part of the address (a chart bar opens it, a link shows it).
  const [selected, setSelected, hrefOf] = useUrlSelection(DRILL_PARAMS.actionType);
  const { query, scope, statusFor } = useAnalyticsQuery('actions', loadActions);
  const rows = query.data?.actions;
  const approximate = actionsApproximate(query.data);
  const chart = useMemo(
    () => rows && actionsChart(rows, ctx, { approximate }),
    [rows, ctx, approximate],
  );
  const drill = useMemo(
    () => rows && { element: (e: ChartElement) => actionTarget(rows, e) },
    [rows],
  );
  const sorted = useLocalSort(rows, ACTION_SORTS, '-count');
  const columns: PagedColumn<ActionRow>[] = [
    {
      key: 'actionType',
      label: t('processes.actionType'),
      sortKey: 'actionType',
      render: (row) => <DrillLink to={hrefOf(row.actionType)}>{row.actionType}</DrillLink>,
    },
    {
      key: 'count',
      label: t('processes.count'),
      sortKey: 'count',
      align: 'right',
      render: (row) => cellText(row.count, 'integer', language),
    },
    {
      key: 'failed',
      label: t('processes.outcome.failed'),
      sortKey: 'failed',
      align: 'right',
      render: (row) => cellText(row.failed, 'integer', language),
    },
    {
      key: 'failureRate',
      label: t('processes.failureRate'),
      sortKey: 'failureRate',
      align: 'right',
      render: (row) => cellText(row.failureRate, 'share', language),
    },
    {
      key: 'p50',
      label: t('processes.durationP50'),
      sortKey: 'durationP50',
      align: 'right',
      render: (row) => percentileCell(row.durationP50Seconds, language, approximate),
    },
    {
      key: 'p90',
      label: t('processes.durationP90'),
      sortKey: 'durationP90',
      align: 'right',
      render: (row) => percentileCell(row.durationP90Seconds, language, approximate),
    },
    {
      key: 'wait',
      label: t('processes.meanWait'),
      sortKey: 'meanWait',
      align: 'right',
      render: (row) => cellText(row.meanWaitSeconds, 'duration', language),
    },
    {
      key: 'previousFailureRate',
      label: t('processes.previousFailureRate'),
      sortKey: 'previousFailureRate',
      align: 'right',
      render: (row) => cellText(row.previousFailureRate, 'share', language),
    },
  ];
  return (
    <AnalysisPage topic="processesActions">
      <Stack gap="md">
        <ModelChartCard
          name="actions"
          title={t('processes.actionsTitle')}
          status={statusFor((d) => d.actions.length === 0)}
          model={chart}
          drill={drill}
          exportScope={{ page: 'processesActions', from: scope.from, to: scope.to }}
          height={280}
        />
        {rows && rows.length > 0 && (
          <div data-testid="actions-list">
            <Text size="sm" c="dimmed" mb="xs">
              {t('processes.openActionHint')}
            </Text>
            <ApproximateNote shown={approximate} mb="xs" />
            <PagedTable
              testId="actions-table"
              columns={columns}
              rows={sorted.rows}
              sort={sorted.sort}
              onSort={sorted.onSort}
              rowKey={(row) => row.actionType}
              rowTestId={(row) => `action-row-${row.actionType}`}
              onRowClick={(row) => setSelected(row.actionType)}
            />
          </div>
        )}
        {selected && (
          <ShownOnOpen key={`${selected}|${scopeKey(scope)}`}>
            <FailedActionsDrilldown
              scope={scope}
              actionType={selected}
              onClose={() => setSelected(null)}
            />
          </ShownOnOpen>
        )}
      </Stack>
    </AnalysisPage>
  );
}
