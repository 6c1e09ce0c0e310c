import { Group, SegmentedControl, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useReducer } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type AnalysisScope,
  type HeatmapCell,
  loadWorkflowHistogram,
  loadWorkflowOrders,
  ORDER_OUTCOMES,
  type OrderOutcome,
  scopeKey,
  type WorkflowOrder,
} from '../../api/analytics-processes';
import {
  chartStatus,
  type EmptyReason,
  ModelChartCard,
  useChartContext,
} from '../../components/charts';
import { DrilldownPanel } from '../../components/drill/DrilldownPanel';
import { useUrlSelection } from '../../components/drill/useUrlSelection';
import { cellText } from '../../components/tables/cellText';
import { initialListState, listReducer, pagerOf } from '../../components/tables/listState';
import { type PagedColumn, PagedTable } from '../../components/tables/PagedTable';
import {
  type ChartElement,
  cycleBarTarget,
  cycleBucketOf,
  DRILL_PARAMS,
} from '../../lib/drillDown';
import { CycleFilterChip } from './CycleFilterChip';
import { OutcomeBadge } from './OutcomeBadge';
import { cycleHistogramChart, histogramBuckets } from './processesCharts';

const ORDER_DEFAULT_SORT = '-start';
interface OrderFilters {
  outcome: OrderOutcome | null;
  /** Only the finished orders in this bucket of the cycle-time histogram (a bar's drill-down). */
  cycleBucket: number | null;
}
const reduceOrders = listReducer<OrderFilters>(ORDER_DEFAULT_SORT);

/** One workflow: its cycle-time histogram and its orders (paged, sortable, by outcome). */
export function WorkflowDrilldown({
  scope,
  workflow,
  cell,
  emptyReason,
  onClose,
}: {
  scope: AnalysisScope;
  workflow: string;
  /** Only the orders ended in this cell of the orders heatmap (null: all of T). */
  cell: HeatmapCell | null;
  emptyReason: EmptyReason;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const ctx = useChartContext();
  const language = i18n.language;
  // The outcome is part of the address: the finished-orders tiles open the lists with it.
  const [urlOutcome, setUrlOutcome] = useUrlSelection(DRILL_PARAMS.outcome);
  const outcome = ORDER_OUTCOMES.find((known) => known === urlOutcome) ?? null;
  // So is a histogram bar's bucket: the bar opens the orders it counts.
  const [urlBucket, setUrlBucket] = useUrlSelection(DRILL_PARAMS.cycleBucket);
  const cycleBucket = cycleBucketOf(urlBucket);
  const [list, dispatch] = useReducer(reduceOrders, initialListState({ outcome, cycleBucket }));
  // A new address (a link followed while the list is open) sets the list's filters too.
  useEffect(() => {
    dispatch({ type: 'filter', filters: { outcome, cycleBucket } });
  }, [outcome, cycleBucket]);
  const key = [scopeKey(scope), workflow, cell?.weekday, cell?.hour];
  const histogram = useQuery({
    queryKey: ['analytics', 'workflowHistogram', ...key],
    queryFn: () => loadWorkflowHistogram(scope, workflow, cell),
  });
  const orders = useQuery({
    queryKey: ['analytics', 'workflowOrders', ...key, list],
    queryFn: () =>
      loadWorkflowOrders(scope, workflow, {
        page: list.page,
        pageSize: list.pageSize,
        sort: list.sort,
        outcome: list.filters.outcome,
        cycleBucket: list.filters.cycleBucket,
        cell,
      }),
    placeholderData: (previous) => previous,
  });
  const model = useMemo(
    () => histogram.data && cycleHistogramChart(histogram.data, ctx),
    [histogram.data, ctx],
  );
  const drill = useMemo(() => {
    const buckets = histogram.data ? histogramBuckets(histogram.data) : [];
    return {
      element: (element: ChartElement) => cycleBarTarget(element, { buckets, workflow, cell }),
    };
  }, [histogram.data, workflow, cell]);
  const columns: PagedColumn<WorkflowOrder>[] = [
    {
      key: 'orderId',
      label: t('processes.orderId'),
      sortKey: 'orderId',
      render: (row) => row.orderId,
    },
    {
      key: 'vehicle',
      label: t('processes.vehicle'),
      sortKey: 'vehicle',
      render: (row) => row.vehicleName,
    },
    {
      key: 'start',
      label: t('processes.start'),
      sortKey: 'start',
      render: (row) => cellText(row.start, 'dateTime', language, ctx.timeZone),
    },
    {
      key: 'end',
      label: t('processes.end'),
      sortKey: 'end',
      render: (row) => cellText(row.end, 'dateTime', language, ctx.timeZone),
    },
    {
      key: 'duration',
      label: t('processes.duration'),
      sortKey: 'duration',
      align: 'right',
      render: (row) => cellText(row.durationSeconds, 'duration', language),
    },
    {
      key: 'outcome',
      label: t('processes.outcomeLabel'),
      sortKey: 'outcome',
      render: (row) => <OutcomeBadge outcome={row.outcome} />,
    },
    {
      key: 'distance',
      label: t('processes.distance'),
      sortKey: 'distance',
      align: 'right',
      render: (row) => cellText(row.distanceMeters, 'metres', language),
    },
    {
      key: 'errors',
      label: t('processes.errors'),
      align: 'right',
      render: (row) => cellText(row.errorCount, 'integer', language),
    },
  ];
  const page = orders.data;
  return (
    <DrilldownPanel
      testId="drilldown-workflow"
      data={{ workflow }}
      title={t('processes.workflowDrilldown', { workflow })}
      closeLabel={t('processes.closeDrilldown')}
      onClose={onClose}
    >
      <ModelChartCard
        name="workflow-histogram"
        title={t('processes.cycleHistogram')}
        status={chartStatus({
          isPending: histogram.isPending,
          error: histogram.error,
          isEmpty:
            histogram.data !== undefined &&
            histogram.data.current.cycle.count === 0 &&
            histogram.data.previous.cycle.count === 0,
          emptyReason,
          onRetry: () => void histogram.refetch(),
        })}
        model={model}
        drill={drill}
        exportScope={{ page: 'processesWorkflows', from: scope.from, to: scope.to }}
        height={260}
      />
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={4} size="h5">
          {t('processes.workflowOrders')}
        </Title>
        <SegmentedControl
          size="xs"
          data-testid="drilldown-outcome"
          aria-label={t('processes.outcomeLabel')}
          value={list.filters.outcome ?? 'all'}
          onChange={(value) => setUrlOutcome(value === 'all' ? null : value)}
          data={[
            { value: 'all', label: t('processes.allOutcomes') },
            { value: 'finished', label: t('processes.outcome.finished') },
            // A cycle-time bucket holds finished orders only.
            {
              value: 'failed',
              label: t('processes.outcome.failed'),
              disabled: list.filters.cycleBucket !== null,
            },
            {
              value: 'cancelled',
              label: t('processes.outcome.cancelled'),
              disabled: list.filters.cycleBucket !== null,
            },
          ]}
        />
      </Group>
      {list.filters.cycleBucket !== null && histogram.data && (
        <CycleFilterChip
          edges={histogram.data.histogramEdges}
          bucket={list.filters.cycleBucket}
          onClear={() => setUrlBucket(null)}
        />
      )}
      <PagedTable
        testId="drilldown-orders"
        columns={columns}
        rows={page?.items}
        rowKey={(row) => `${row.vehicleId}-${row.orderId}`}
        rowTestId={(row) => `order-row-${row.orderId}`}
        sort={page?.sort ?? list.sort ?? ORDER_DEFAULT_SORT}
        onSort={(column) => dispatch({ type: 'sort', column })}
        pager={pagerOf(list, page, dispatch)}
        isPending={orders.isPending}
        error={orders.error}
        onRetry={() => void orders.refetch()}
        empty={
          <Text c="dimmed" data-testid="drilldown-orders-empty">
            {t('processes.noOrders')}
          </Text>
        }
      />
    </DrilldownPanel>
  );
}
