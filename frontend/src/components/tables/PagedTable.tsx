import { Alert, Button, Group, Select, Skeleton, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { failureText } from '../../api/client';
import { formatNumber } from '../../lib/format';
import { PAGE_SIZES, type Pager, pageRange } from './listState';
import { SortableTh } from './SortableTh';

export interface PagedColumn<T> {
  key: string;
  label: string;
  /** The sort column (the server's, or a key of `useLocalSort`), when the list sorts by it. */
  sortKey?: string;
  align?: 'left' | 'right';
  /** Stays in view at the table's end while the table scrolls sideways (a row's actions). */
  pinned?: boolean;
  render: (row: T) => ReactNode;
}

/** The class of a pinned column's cells (styles/global.css). */
export const PINNED_END = 'fs-pinned-end';

interface PagedTableProps<T> {
  testId: string;
  columns: PagedColumn<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  rowTestId?: (row: T) => string;
  /** The sort in effect (as the server reports it); none: no column is sortable. */
  sort?: string;
  onSort?: (column: string) => void;
  /** None: a short list on one page, without a pager. */
  pager?: Pager;
  isPending?: boolean;
  error?: unknown;
  onRetry?: () => void;
  /** Shown instead of the table when the filtered list has no rows (says why). */
  empty?: ReactNode;
  /**
   * Rows open a drill-down on a pointer's click anywhere in the row. Keyboards and screen
   * readers reach it through a link in the row (`DrillLink`): a focusable row would be
   * announced as a plain row.
   */
  onRowClick?: (row: T) => void;
}

const INTERACTIVE = 'a, button, input, select, textarea';

/**
 * A list paged and sorted by the server, or a whole short list sorted in the browser
 * (`localSort.ts`): sortable headers, pager, states.
 */
export function PagedTable<T>(props: PagedTableProps<T>) {
  const { t } = useTranslation();
  const sort = props.sort ?? '';
  if (props.error) {
    return (
      <Alert
        color="red"
        variant="light"
        title={t('state.loadFailedTitle')}
        data-testid={`${props.testId}-error`}
      >
        <Group gap="sm">
          <Text size="sm">{failureText(props.error, t)}</Text>
          <Button size="xs" variant="light" color="red" onClick={props.onRetry}>
            {t('state.retry')}
          </Button>
        </Group>
      </Alert>
    );
  }
  if (props.isPending || !props.rows) {
    return <Skeleton height={240} radius="md" data-testid={`${props.testId}-loading`} />;
  }

  return (
    <div>
      {props.rows.length === 0 ? (
        props.empty
      ) : (
        <Table.ScrollContainer minWidth={Math.max(480, props.columns.length * 120)}>
          <Table striped highlightOnHover data-testid={props.testId} data-sort={sort}>
            <Table.Thead>
              <Table.Tr>
                {props.columns.map((column) => (
                  <SortableTh
                    key={column.key}
                    label={column.label}
                    sortKey={column.sortKey}
                    sort={sort}
                    onSort={props.onSort}
                    align={column.align}
                    className={column.pinned ? PINNED_END : undefined}
                  />
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {props.rows.map((row) => (
                <Table.Tr
                  key={props.rowKey(row)}
                  data-testid={props.rowTestId?.(row)}
                  onClick={
                    props.onRowClick
                      ? (event) => {
                          // A link or button in the row does its own thing (a row's link
                          // opens the same drill-down: once, not twice).
                          if (!(event.target as Element).closest(INTERACTIVE)) {
                            props.onRowClick?.(row);
                          }
                        }
                      : undefined
                  }
                  style={props.onRowClick ? { cursor: 'pointer' } : undefined}
                >
                  {props.columns.map((column) => (
                    <Table.Td
                      key={column.key}
                      ta={column.align ?? 'left'}
                      className={column.pinned ? PINNED_END : undefined}
                      style={{ whiteSpace: 'nowrap' }}
                    >
                      {column.render(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {/* Under an empty list (it says why) a pager would only read "0–0 of 0"; from a later
          page it stays, to go back. */}
      {props.pager && (props.pager.total > 0 || props.pager.page > 1) && (
        <PagerBar pager={props.pager} />
      )}
    </div>
  );
}

// The pager's controls keep their width: on a phone the bar wraps instead of cutting the
// buttons' labels ("Zurüc" for "Zurück").
const NO_SHRINK = { flexShrink: 0 } as const;

/** Range, page size and previous/next of a paged list. */
function PagerBar({ pager }: { pager: Pager }) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => formatNumber(value, i18n.language);
  const { first, last } = pageRange(pager);
  return (
    <Group justify="space-between" mt="sm" gap="xs" wrap="wrap">
      <Text
        size="sm"
        c="dimmed"
        data-testid="pager-info"
        data-page={pager.page}
        data-pages={pager.pages}
        data-total={pager.total}
      >
        {t('processes.list.range', {
          first: number(first),
          last: number(last),
          total: number(pager.total),
        })}
      </Text>
      {/* Wraps on a phone: page size, both buttons and "Seite 1 von 127" exceed 390 px. */}
      <Group gap="xs" wrap="wrap">
        <Select
          size="xs"
          w={90}
          aria-label={t('processes.list.pageSize')}
          data={PAGE_SIZES.map((size) => String(size))}
          value={String(pager.pageSize)}
          onChange={(value) => value && pager.onPageSize(Number(value))}
          allowDeselect={false}
          data-testid="pager-size"
        />
        <Button
          size="xs"
          variant="default"
          disabled={pager.page <= 1}
          onClick={() => pager.onPage(pager.page - 1)}
          data-testid="pager-prev"
          style={NO_SHRINK}
        >
          {t('processes.list.previous')}
        </Button>
        <Text size="sm" data-testid="pager-page" style={{ ...NO_SHRINK, whiteSpace: 'nowrap' }}>
          {t('processes.list.page', {
            page: number(pager.page),
            pages: number(Math.max(1, pager.pages)),
          })}
        </Text>
        <Button
          size="xs"
          variant="default"
          disabled={pager.page >= pager.pages}
          onClick={() => pager.onPage(pager.page + 1)}
          data-testid="pager-next"
          style={NO_SHRINK}
        >
          {t('processes.list.next')}
        </Button>
      </Group>
    </Group>
  );
}
