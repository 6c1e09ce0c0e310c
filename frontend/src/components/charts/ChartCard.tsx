import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconChartBar, IconDatabaseOff, IconDownload, IconTable } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { csvFileName, downloadCsv, toCsv } from './csv';
import { DataTable, inSortedOrder, type RowLink, useTableSort } from './DataTable';
import type { EmptyReason } from './emptyReason';
import type { TableData } from './types';

export type ChartStatus =
  | { kind: 'loading' }
  | { kind: 'error'; message?: string; onRetry?: () => void }
  | { kind: 'empty'; reason: EmptyReason }
  | { kind: 'ready' };

export interface ChartCardProps {
  /** Stable id: test id `chart-<name>` and part of the CSV file name. */
  name: string;
  title: string;
  status: ChartStatus;
  /** The chart's data as a table (table view and CSV export). */
  table?: TableData;
  /** Page topic and period, for the CSV file name. */
  exportScope: { page: string; from: string; to: string };
  height?: number;
  /** Extra controls in the header (left of the table toggle). */
  actions?: ReactNode;
  /** The chart (usually <EChart option=... />), shown in chart view when ready. */
  children: ReactNode;
  /** The drill-down of a table row (its first cell becomes a link), null for none. */
  rowLink?: RowLink;
  /** Shows the table view, scrolled into sight, once it turns true (a link to this list). */
  openTable?: boolean;
  /** The user switched views (a page clears the link that opened the table, so it works again). */
  onViewChange?: (view: 'chart' | 'table') => void;
}

/**
 * Frame of every chart: title, loading skeleton, an empty state that says why, an error
 * state with retry, a chart/table toggle and CSV export of the table.
 */
export function ChartCard({
  name,
  title,
  status,
  table,
  exportScope,
  height = 320,
  actions,
  children,
  rowLink,
  openTable = false,
  onViewChange,
}: ChartCardProps) {
  const { t, i18n } = useTranslation();
  const [view, setView] = useState<'chart' | 'table'>(openTable ? 'table' : 'chart');
  const canUseTable = status.kind === 'ready' && table !== undefined && table.rows.length > 0;
  const showTable = view === 'table' && canUseTable;
  const card = useRef<HTMLDivElement>(null);
  const sorted = useTableSort(table);
  // A link from the same page keeps the card mounted: its view follows the link too.
  useEffect(() => {
    if (openTable) {
      setView('table');
    }
  }, [openTable]);
  useEffect(() => {
    if (openTable && canUseTable) {
      // Optional: jsdom has no layout and no scrollIntoView.
      card.current?.scrollIntoView?.({ block: 'start' });
    }
  }, [openTable, canUseTable]);

  const exportCsv = () => {
    if (!table) {
      return;
    }
    // The rows in the order the table view shows (its sort stays while the chart is shown).
    downloadCsv({
      csv: toCsv(inSortedOrder(table, sorted), i18n.language),
      fileName: csvFileName({ ...exportScope, chart: name }),
    });
  };

  return (
    <Paper
      ref={card}
      withBorder
      radius="lg"
      p="md"
      data-testid={`chart-${name}`}
      data-status={status.kind}
      data-view={showTable ? 'table' : 'chart'}
      style={{ minWidth: 0 }}
    >
      <Group justify="space-between" wrap="nowrap" mb="sm" gap="xs">
        <Title order={4} size="h5" style={{ minWidth: 0 }}>
          {title}
        </Title>
        <Group gap={4} wrap="nowrap">
          {actions}
          {table && (
            <>
              <Tooltip label={showTable ? t('charts.showChart') : t('charts.showTable')}>
                <ActionIcon
                  variant="subtle"
                  aria-label={showTable ? t('charts.showChart') : t('charts.showTable')}
                  aria-pressed={showTable}
                  disabled={!canUseTable}
                  onClick={() => {
                    const next = showTable ? 'chart' : 'table';
                    setView(next);
                    onViewChange?.(next);
                  }}
                  data-testid="chart-table-toggle"
                >
                  {showTable ? <IconChartBar size={18} /> : <IconTable size={18} />}
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('charts.exportCsv')}>
                <ActionIcon
                  variant="subtle"
                  aria-label={t('charts.exportCsv')}
                  disabled={!canUseTable}
                  onClick={exportCsv}
                  data-testid="csv-export"
                >
                  <IconDownload size={18} />
                </ActionIcon>
              </Tooltip>
            </>
          )}
        </Group>
      </Group>
      <ChartBody status={status} height={height}>
        {showTable && table ? (
          <DataTable table={table} sorted={sorted} language={i18n.language} rowLink={rowLink} />
        ) : (
          children
        )}
      </ChartBody>
    </Paper>
  );
}

function ChartBody({
  status,
  height,
  children,
}: {
  status: ChartStatus;
  height: number;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  switch (status.kind) {
    case 'loading':
      return <Skeleton height={height} radius="md" data-testid="chart-loading" />;
    case 'error':
      return (
        <Alert
          color="red"
          variant="light"
          title={t('state.loadFailedTitle')}
          data-testid="chart-error"
        >
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{status.message ?? t('state.loadFailedBody')}</Text>
            {status.onRetry && (
              <Button size="xs" variant="light" color="red" onClick={status.onRetry}>
                {t('state.retry')}
              </Button>
            )}
          </Stack>
        </Alert>
      );
    case 'empty':
      return (
        <Stack
          align="center"
          justify="center"
          gap="xs"
          mih={Math.min(height, 200)}
          data-testid="chart-empty"
          data-reason={status.reason}
        >
          <IconDatabaseOff size={28} stroke={1.5} color="var(--mantine-color-dimmed)" />
          <Text fw={500}>{t(`charts.empty.${status.reason}.title`)}</Text>
          <Text size="sm" c="dimmed" ta="center" maw={420}>
            {t(`charts.empty.${status.reason}.body`)}
          </Text>
        </Stack>
      );
    default:
      return <>{children}</>;
  }
}
