import { Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadWorkflows, scopeKey, type WorkflowRow } from '../../api/analytics-processes';
import {
  ModelChartCard,
  PartlyRecordedNote,
  reportedIn,
  useAnalyticsQuery,
  useChartContext,
} from '../../components/charts';
import { DrillLink } from '../../components/drill/DrillLink';
import { ShownOnOpen } from '../../components/drill/ShownOnOpen';
import { useUrlSelection } from '../../components/drill/useUrlSelection';
import { AnalysisPage } from '../../components/page/AnalysisPage';
import { cellText, signedCount } from '../../components/tables/cellText';
import { nextSort } from '../../components/tables/listState';
import { type PagedColumn, PagedTable } from '../../components/tables/PagedTable';
import {
  type ChartElement,
  cycleBucketOf,
  DRILL_PARAMS,
  heatmapCellOf,
  workflowTarget,
} from '../../lib/drillDown';
import { ApproximateNote } from './ApproximateNote';
import { percentileCell } from './approximate';
import { CycleFilterChip } from './CycleFilterChip';
import { HeatmapCellChip } from './HeatmapCellChip';
import { WorkflowDrilldown } from './WorkflowDrilldown';
import { workflowCycleChart, workflowsApproximate } from './workflowCharts';

const WORKFLOW_DEFAULT_SORT = '-orders';

/** processes/workflows: the workflows table (sorted by the server) and one workflow's drill-down. */
export default function ProcessesWorkflowsPage() {
  const { t, i18n } = useTranslation();
  const ctx = useChartContext();
  const language = i18n.language;
  const [sort, setSort] = useState<string | null>(null);
  // The open workflow is part of the address (a drill-down from elsewhere opens it).
  const [selected, setSelected, hrefOf] = useUrlSelection(DRILL_PARAMS.workflow);
  // So are a cell of the orders heatmap and a bucket of a cycle-time histogram: the table
  // and the lists hold the orders ended in the cell, the finished orders of the bucket.
  const [cellParam, setCellParam] = useUrlSelection(DRILL_PARAMS.heatmapCell);
  const cell = heatmapCellOf(cellParam);
  const [bucketParam, setBucketParam] = useUrlSelection(DRILL_PARAMS.cycleBucket);
  const cycleBucket = cycleBucketOf(bucketParam);
  const { query, scope, statusFor, emptyReason } = useAnalyticsQuery(
    'workflows',
    (s) => loadWorkflows(s, { sort, cell, cycleBucket }),
    { extraKey: [sort, cell?.weekday, cell?.hour, cycleBucket] },
  );
  const rows = query.data?.workflows;
  const approximate = workflowsApproximate(query.data);
  const compared = query.data?.previousRecorded ?? true;
  const chart = useMemo(
    () => rows && workflowCycleChart(rows, ctx, { approximate, compared }),
    [rows, ctx, approximate, compared],
  );
  const drill = useMemo(
    () => rows && { element: (e: ChartElement) => workflowTarget(rows, e, { cell, cycleBucket }) },
    [rows, cell, cycleBucket],
  );
  const columns: PagedColumn<WorkflowRow>[] = [
    {
      key: 'workflow',
      label: t('processes.workflow'),
      sortKey: 'workflow',
      render: (row) => <DrillLink to={hrefOf(row.workflow)}>{row.workflow}</DrillLink>,
    },
    {
      key: 'orders',
      label: t('processes.orders'),
      sortKey: 'orders',
      align: 'right',
      render: (row) => cellText(row.orders, 'integer', language),
    },
    {
      key: 'finished',
      label: t('processes.outcome.finished'),
      sortKey: 'finished',
      align: 'right',
      render: (row) => cellText(row.finished, 'integer', language),
    },
    {
      key: 'successRate',
      label: t('processes.successRate'),
      sortKey: 'successRate',
      align: 'right',
      render: (row) => cellText(row.successRate, 'share', language),
    },
    {
      key: 'p50',
      label: t('processes.cycleP50'),
      sortKey: 'cycleP50',
      align: 'right',
      render: (row) => percentileCell(row.cycleP50Seconds, language, approximate),
    },
    {
      key: 'p90',
      label: t('processes.cycleP90'),
      sortKey: 'cycleP90',
      align: 'right',
      render: (row) => percentileCell(row.cycleP90Seconds, language, approximate),
    },
    {
      key: 'trend',
      label: t('processes.ordersTrend'),
      sortKey: 'ordersTrend',
      align: 'right',
      render: (row) =>
        compared ? signedCount(row.ordersTrend, language) : t('charts.noComparison'),
    },
    {
      key: 'previousSuccessRate',
      label: t('processes.previousSuccessRate'),
      sortKey: 'previousSuccessRate',
      align: 'right',
      render: (row) => cellText(row.previousSuccessRate, 'share', language),
    },
  ];
  return (
    <AnalysisPage topic="processesWorkflows">
      <Stack gap="md">
        {cell && <HeatmapCellChip cell={cell} onClear={() => setCellParam(null)} />}
        {/* An open workflow shows the bucket with its orders (WorkflowDrilldown). */}
        {cycleBucket !== null && !selected && query.data && (
          <CycleFilterChip
            edges={query.data.histogramEdges}
            bucket={cycleBucket}
            testId="workflows-cycle-filter"
            onClear={() => setBucketParam(null)}
          />
        )}
        <ModelChartCard
          name="workflows"
          title={t('processes.workflowsTitle')}
          status={statusFor(
            (d) => d.workflows.length === 0,
            (d) => reportedIn(d.coverage),
          )}
          model={chart}
          drill={drill}
          exportScope={{ page: 'processesWorkflows', from: scope.from, to: scope.to }}
          height={280}
        />
        {rows && rows.length > 0 && (
          <div data-testid="workflows-list">
            <Text size="sm" c="dimmed" mb="xs">
              {t('processes.openWorkflowHint')}
            </Text>
            <ApproximateNote shown={approximate} mb="xs" />
            {query.data && (
              <PartlyRecordedNote
                current={query.data.coverage}
                previous={query.data.previousCoverage}
                mb="xs"
              />
            )}
            <PagedTable
              testId="workflows-table"
              columns={columns}
              rows={rows}
              rowKey={(row) => row.workflow}
              rowTestId={(row) => `workflow-row-${row.workflow}`}
              onRowClick={(row) => setSelected(row.workflow)}
              sort={query.data?.sort ?? sort ?? WORKFLOW_DEFAULT_SORT}
              onSort={(column) =>
                setSort((current) =>
                  nextSort(current ?? WORKFLOW_DEFAULT_SORT, column, {
                    fallback: WORKFLOW_DEFAULT_SORT,
                    defaultDescending: column !== 'workflow',
                  }),
                )
              }
            />
          </div>
        )}
        {selected && (
          <ShownOnOpen key={`${selected}|${scopeKey(scope)}`}>
            <WorkflowDrilldown
              scope={scope}
              workflow={selected}
              cell={cell}
              emptyReason={emptyReason}
              onClose={() => setSelected(null)}
            />
          </ShownOnOpen>
        )}
      </Stack>
    </AnalysisPage>
  );
}
