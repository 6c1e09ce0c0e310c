import { Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useReducer } from 'react';
import { useTranslation } from 'react-i18next';
import { type ChargeSession, loadChargeSessions } from '../../api/analytics-battery';
import { type AnalysisScope, scopeKey } from '../../api/analytics-processes';
import { formatFigure } from '../../components/charts/kpiTexts';
import { useSiteTimeZone } from '../../components/charts/useChartContext';
import { DrilldownPanel } from '../../components/drill/DrilldownPanel';
import { cellText } from '../../components/tables/cellText';
import { initialListState, listReducer, pagerOf } from '../../components/tables/listState';
import { type PagedColumn, PagedTable } from '../../components/tables/PagedTable';
import { depthRangeText } from './batteryCharts';

const SESSIONS_DEFAULT_SORT = '-start';
const reduceSessions = listReducer<Record<string, never>>(SESSIONS_DEFAULT_SORT);

/**
 * The charge sessions starting in the period (the list behind the session figures), or those
 * of one depth-of-discharge bar; paged and sorted by the server.
 */
export function ChargeSessionsDrilldown({
  scope,
  depth,
  onClose,
}: {
  scope: AnalysisScope;
  depth: number | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const timeZone = useSiteTimeZone();
  const [list, dispatch] = useReducer(reduceSessions, initialListState({}));
  const sessions = useQuery({
    queryKey: ['analytics', 'chargeSessions', scopeKey(scope), depth, list],
    queryFn: () =>
      loadChargeSessions(scope, {
        page: list.page,
        pageSize: list.pageSize,
        sort: list.sort,
        depth,
      }),
    placeholderData: keepPreviousData,
  });
  const charge = (value: number) => formatFigure('percentPoints', value, language);
  const columns: PagedColumn<ChargeSession>[] = [
    {
      key: 'vehicle',
      label: t('battery.vehicle'),
      sortKey: 'vehicle',
      render: (row) => row.vehicleName,
    },
    {
      key: 'start',
      label: t('battery.start'),
      sortKey: 'start',
      render: (row) => cellText(row.start, 'dateTime', language, timeZone),
    },
    {
      key: 'end',
      label: t('battery.end'),
      sortKey: 'end',
      render: (row) => cellText(row.end, 'dateTime', language, timeZone),
    },
    {
      key: 'duration',
      label: t('battery.duration'),
      sortKey: 'duration',
      align: 'right',
      render: (row) => cellText(row.durationSeconds, 'duration', language),
    },
    {
      key: 'startCharge',
      label: t('battery.startCharge'),
      align: 'right',
      render: (row) => charge(row.startCharge),
    },
    {
      key: 'endCharge',
      label: t('battery.endCharge'),
      align: 'right',
      render: (row) => charge(row.endCharge),
    },
    {
      key: 'added',
      label: t('battery.addedCharge'),
      sortKey: 'added',
      align: 'right',
      render: (row) => charge(row.addedCharge),
    },
    {
      key: 'depth',
      label: t('battery.depthOfDischarge'),
      sortKey: 'depth',
      align: 'right',
      render: (row) => charge(row.depthOfDischarge),
    },
    {
      key: 'energy',
      label: t('battery.addedEnergy'),
      align: 'right',
      render: (row) =>
        row.addedEnergyWh === null ? '–' : formatFigure('kWh', row.addedEnergyWh, language),
    },
  ];
  const page = sessions.data;
  return (
    <DrilldownPanel
      testId="drilldown-charge-sessions"
      data={{ depth: depth === null ? 'all' : String(depth) }}
      title={
        depth === null
          ? t('battery.sessionList')
          : t('battery.sessionListDepth', { range: depthRangeText(depth, language) })
      }
      closeLabel={t('battery.closeSessions')}
      onClose={onClose}
    >
      <PagedTable
        testId="charge-sessions"
        columns={columns}
        rows={page?.items}
        rowKey={(row) => `${row.vehicleId}-${row.start}`}
        rowTestId={(row) => `charge-session-${row.vehicleId}-${row.start}`}
        sort={page?.sort ?? list.sort ?? SESSIONS_DEFAULT_SORT}
        onSort={(column) => dispatch({ type: 'sort', column })}
        pager={pagerOf(list, page, dispatch)}
        isPending={sessions.isPending}
        error={sessions.error}
        onRetry={() => void sessions.refetch()}
        empty={
          <Text c="dimmed" data-testid="charge-sessions-empty">
            {depth === null ? t('battery.noSessions') : t('battery.noSessionsDepth')}
          </Text>
        }
      />
    </DrilldownPanel>
  );
}
