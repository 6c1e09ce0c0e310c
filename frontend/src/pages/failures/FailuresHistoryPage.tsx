import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconDownload, IconListDetails } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useReducer } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import {
  type ErrorEpisode,
  type ErrorFilter,
  errorHistoryCsvUrl,
  type HistoryQuery,
  loadErrorHistory,
} from '../../api/analytics-failures';
import { scopeKey } from '../../api/analytics-processes';
import { useSiteTimeZone } from '../../components/charts/useChartContext';
import { useDrillDown } from '../../components/drill/useDrillDown';
import { useAnalysisFilters } from '../../components/filters/filtersContext';
import { EmptyState } from '../../components/layout/EmptyState';
import { AnalysisPage } from '../../components/page/AnalysisPage';
import { cellText } from '../../components/tables/cellText';
import { initialListState, listReducer, pagerOf } from '../../components/tables/listState';
import { type PagedColumn, PagedTable } from '../../components/tables/PagedTable';
import { errorFilterFromUrl, historyOrdersTarget, withErrorFilter } from '../../lib/drillDown';
import { CellFilterChip } from './CellFilterChip';
import { ErrorFilterControls } from './ErrorFilterControls';
import { LevelBadge } from './LevelBadge';
import { useErrorTypes } from './useErrorTypes';

// The vehicles come from the header's machine selector alone (no second vehicle filter).
type HistoryFilters = ErrorFilter;
const HISTORY_DEFAULT_SORT = '-start';
const reduceHistory = listReducer<HistoryFilters>(HISTORY_DEFAULT_SORT);

/** failures/history: the error episodes, paged, sorted and filtered by the server; CSV of the filtered list. */
export default function FailuresHistoryPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const filters = useAnalysisFilters();
  // Times in the sites' zone, as in the CSV the page exports.
  const timeZone = useSiteTimeZone();
  const errorTypes = useErrorTypes();
  // The error type and level are part of the address: a drill-down (a Pareto bar, a matrix
  // cell) opens the list filtered, and a filtered list is a link.
  const location = useLocation();
  const navigate = useNavigate();
  const urlFilter = errorFilterFromUrl(location.search);
  // Beside the errors, the orders of the same vehicles in the same period (a vehicle's
  // time-in-state bar leads here: its errors and, one click on, its orders).
  const { locationOf } = useDrillDown();
  const ordersLocation = locationOf(historyOrdersTarget());
  const onlyVehicle = filters.vehicles.length === 1 ? filters.vehicles[0] : undefined;
  const [list, dispatch] = useReducer(reduceHistory, initialListState<HistoryFilters>(urlFilter));
  // The address's filter by value (its levels are a new list on every render): as the query
  // the filter writes, read back when it changes.
  const urlFilterQuery = withErrorFilter('', urlFilter);
  useEffect(() => {
    dispatch({ type: 'filter', filters: errorFilterFromUrl(urlFilterQuery) });
  }, [urlFilterQuery]);
  const changeFilter = (change: Partial<HistoryFilters>) => {
    const search = withErrorFilter(location.search, { ...list.filters, ...change });
    void navigate({ pathname: location.pathname, search }, { replace: true });
  };
  const scope = {
    from: filters.from,
    to: filters.to,
    hours: filters.hours,
    vehicles: filters.vehicles,
    combined: filters.combined,
    shift: filters.shift,
  };
  const selectionKey = scopeKey(scope);
  // A new period or vehicle selection has other pages: start again at the first.
  useEffect(() => {
    if (selectionKey) {
      dispatch({ type: 'page', page: 1, pages: 1 });
    }
  }, [selectionKey]);
  const historyQuery: HistoryQuery = {
    page: list.page,
    pageSize: list.pageSize,
    sort: list.sort,
    ...list.filters,
  };
  const history = useQuery({
    queryKey: ['analytics', 'errorHistory', selectionKey, list],
    queryFn: () => loadErrorHistory(scope, historyQuery),
    enabled: filters.ready && filters.vehicles.length > 0,
    placeholderData: keepPreviousData,
  });
  const page = history.data;
  const columns: PagedColumn<ErrorEpisode>[] = [
    {
      key: 'vehicle',
      label: t('processes.vehicle'),
      sortKey: 'vehicle',
      render: (row) => row.vehicleName,
    },
    {
      key: 'errorType',
      label: t('failures.errorType'),
      sortKey: 'errorType',
      render: (row) => row.errorType,
    },
    {
      key: 'level',
      label: t('failures.levelLabel'),
      sortKey: 'level',
      render: (row) => <LevelBadge level={row.level} />,
    },
    {
      key: 'description',
      label: t('failures.description'),
      render: (row) => (
        <Text size="sm" truncate maw={280} title={row.description}>
          {row.description}
        </Text>
      ),
    },
    {
      key: 'start',
      label: t('failures.start'),
      sortKey: 'start',
      render: (row) => cellText(row.start, 'dateTime', language, timeZone),
    },
    {
      key: 'end',
      label: t('failures.end'),
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
    { key: 'order', label: t('processes.orderId'), render: (row) => row.orderId || '–' },
    {
      key: 'position',
      label: t('failures.position'),
      align: 'right',
      render: (row) =>
        row.x === null || row.y === null
          ? '–'
          : `${cellText(row.x, 'decimal', language)} / ${cellText(row.y, 'decimal', language)} m`,
    },
  ];
  if (filters.ready && filters.vehicles.length === 0) {
    return (
      <AnalysisPage topic="failuresHistory">
        <EmptyState kind="noVehicles" />
      </AnalysisPage>
    );
  }
  return (
    <AnalysisPage topic="failuresHistory">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="xs">
          <Group gap="xs" align="flex-end" wrap="wrap">
            <ErrorFilterControls
              filter={list.filters}
              errorTypes={errorTypes}
              onChange={changeFilter}
            />
            {list.filters.cell && (
              <CellFilterChip
                filter={list.filters.cell}
                onClear={() => changeFilter({ cell: null })}
              />
            )}
            {ordersLocation && (
              <Anchor
                component={Link}
                to={ordersLocation}
                size="sm"
                pb={6}
                data-testid="error-history-orders-link"
              >
                <Group gap={4} wrap="nowrap" component="span">
                  <IconListDetails size={16} aria-hidden />
                  {onlyVehicle
                    ? t('failures.ordersOfVehicle', { name: onlyVehicle.name })
                    : t('failures.ordersOfSelection')}
                </Group>
              </Anchor>
            )}
          </Group>
          <Button
            component="a"
            href={errorHistoryCsvUrl(scope, historyQuery)}
            download
            size="xs"
            variant="light"
            leftSection={<IconDownload size={16} />}
            disabled={!page || page.total === 0}
            data-testid="error-history-csv"
          >
            {t('failures.exportCsv')}
          </Button>
        </Group>
        <PagedTable
          testId="error-history-table"
          columns={columns}
          rows={page?.items}
          rowKey={(row) => `${row.vehicleId}-${row.start}-${row.errorType}-${row.level}`}
          rowTestId={(row) => `error-row-${row.vehicleId}-${row.start}`}
          sort={page?.sort ?? list.sort ?? HISTORY_DEFAULT_SORT}
          onSort={(column) =>
            dispatch({
              type: 'sort',
              column,
              defaultDescending: !['vehicle', 'errorType'].includes(column),
            })
          }
          pager={pagerOf(list, page, dispatch)}
          isPending={!filters.ready || history.isPending}
          error={history.error}
          onRetry={() => void history.refetch()}
          empty={
            <Text c="dimmed" ta="center" py="xl" data-testid="error-history-empty">
              {list.filters.errorType || list.filters.levels.length > 0 || list.filters.cell
                ? t('failures.noEpisodesFiltered')
                : t('failures.noEpisodes')}
            </Text>
          }
        />
      </Stack>
    </AnalysisPage>
  );
}
