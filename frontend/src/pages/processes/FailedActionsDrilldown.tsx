import { Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useReducer } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type AnalysisScope,
  type FailedAction,
  loadFailedActions,
  scopeKey,
} from '../../api/analytics-processes';
import { useSiteTimeZone } from '../../components/charts/useChartContext';
import { DrilldownPanel } from '../../components/drill/DrilldownPanel';
import { cellText } from '../../components/tables/cellText';
import { initialListState, listReducer, pagerOf } from '../../components/tables/listState';
import { type PagedColumn, PagedTable } from '../../components/tables/PagedTable';

const FAILED_DEFAULT_SORT = '-end';
const reduceFailures = listReducer<Record<string, never>>(FAILED_DEFAULT_SORT);

/** The failed actions of one action type, paged and sortable by the server. */
export function FailedActionsDrilldown({
  scope,
  actionType,
  onClose,
}: {
  scope: AnalysisScope;
  actionType: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const timeZone = useSiteTimeZone();
  const [list, dispatch] = useReducer(reduceFailures, initialListState({}));
  const failures = useQuery({
    queryKey: ['analytics', 'failedActions', scopeKey(scope), actionType, list],
    queryFn: () =>
      loadFailedActions(scope, actionType, {
        page: list.page,
        pageSize: list.pageSize,
        sort: list.sort,
      }),
    placeholderData: keepPreviousData,
  });
  const columns: PagedColumn<FailedAction>[] = [
    {
      key: 'vehicle',
      label: t('processes.vehicle'),
      sortKey: 'vehicle',
      render: (row) => row.vehicleName,
    },
    { key: 'actionId', label: t('processes.actionId'), render: (row) => row.actionId },
    {
      key: 'orderId',
      label: t('processes.orderId'),
      sortKey: 'orderId',
      render: (row) => row.orderId || t('processes.instantAction'),
    },
    {
      key: 'firstSeen',
      label: t('processes.firstSeen'),
      sortKey: 'firstSeen',
      render: (row) => cellText(row.firstSeen, 'dateTime', language, timeZone),
    },
    {
      key: 'started',
      label: t('processes.started'),
      render: (row) => cellText(row.started, 'dateTime', language, timeZone),
    },
    {
      key: 'end',
      label: t('processes.end'),
      sortKey: 'end',
      render: (row) => cellText(row.end, 'dateTime', language, timeZone),
    },
    {
      key: 'duration',
      label: t('processes.duration'),
      sortKey: 'duration',
      align: 'right',
      render: (row) => cellText(row.durationSeconds, 'duration', language),
    },
  ];
  const page = failures.data;
  return (
    <DrilldownPanel
      testId="drilldown-failed-actions"
      data={{ 'action-type': actionType }}
      title={t('processes.failedActionsOf', { actionType })}
      closeLabel={t('processes.closeDrilldown')}
      onClose={onClose}
    >
      <PagedTable
        testId="drilldown-failures"
        columns={columns}
        rows={page?.items}
        rowKey={(row) => `${row.vehicleId}-${row.actionId}-${row.end}`}
        rowTestId={(row) => `failed-action-row-${row.actionId}`}
        sort={page?.sort ?? list.sort ?? FAILED_DEFAULT_SORT}
        onSort={(column) => dispatch({ type: 'sort', column })}
        pager={pagerOf(list, page, dispatch)}
        isPending={failures.isPending}
        error={failures.error}
        onRetry={() => void failures.refetch()}
        empty={
          <Text c="dimmed" data-testid="drilldown-failures-empty">
            {t('processes.noFailedActions')}
          </Text>
        }
      />
    </DrilldownPanel>
  );
}
