import { Anchor, Table } from '@mantine/core';
import { Link } from 'react-router';
import { type LocalSortKeys, useLocalSort } from '../tables/localSort';
import { SortableTh } from '../tables/SortableTh';
import type { TableData } from './types';
import { formatValue } from './values';

/** Where a table row leads (a hash route's path and query), or null. */
export type RowLink = (index: number) => { pathname: string; search: string } | null;

/** The sort of a table view's columns: by their values, a text column A to Z first. */
function columnSorts(table: TableData): LocalSortKeys<number> {
  return Object.fromEntries(
    table.columns.map((column) => [
      column.key,
      {
        value: (index: number) => table.rows[index]?.[column.key],
        ascendingFirst: column.format === 'text',
      },
    ]),
  );
}

export type TableSort = ReturnType<typeof useTableSort>;

/**
 * The order of a table's rows (their indexes): the transform's (time, rank) until a header
 * sorts them by its column. Kept by the chart's card, so that its CSV export has the order
 * the table view shows.
 */
export function useTableSort(table: TableData | undefined) {
  const rows = table?.rows ?? [];
  return useLocalSort(
    rows.map((_, index) => index),
    table ? columnSorts(table) : {},
    '',
  );
}

/** `table` with its rows in the order of `sorted`. */
export function inSortedOrder(table: TableData, sorted: TableSort): TableData {
  return { ...table, rows: (sorted.rows ?? []).map((index) => table.rows[index] ?? {}) };
}

/** The table view: scrolls horizontally on a phone instead of squeezing columns. */
export function DataTable({
  table,
  sorted,
  language,
  rowLink,
}: {
  table: TableData;
  sorted: TableSort;
  language: string;
  rowLink?: RowLink;
}) {
  return (
    <Table.ScrollContainer minWidth={Math.max(320, table.columns.length * 110)} maxHeight={420}>
      <Table
        striped
        stickyHeader
        highlightOnHover
        data-testid="chart-table"
        data-sort={sorted.sort}
      >
        <Table.Thead>
          <Table.Tr>
            {table.columns.map((column) => (
              <SortableTh
                key={column.key}
                label={column.label}
                sortKey={column.key}
                sort={sorted.sort}
                onSort={sorted.onSort}
                align={column.format === 'text' ? 'left' : 'right'}
              />
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(sorted.rows ?? []).map((index) => {
            const row = table.rows[index] ?? {};
            return (
              // A row is its position in the transform's output: the key keeps it when sorted.
              <Table.Tr key={index}>
                {table.columns.map((column, columnIndex) => {
                  const value = row[column.key] ?? null;
                  const shown = formatValue({
                    value,
                    format: column.format,
                    language,
                    digits: column.digits,
                    timeZone: column.timeZone,
                  });
                  const text = column.approximate && value !== null ? `≈ ${shown}` : shown;
                  // The row's name links to the list behind it (the accessible drill-down).
                  const link = columnIndex === 0 ? rowLink?.(index) : null;
                  return (
                    <Table.Td
                      key={column.key}
                      ta={column.format === 'text' ? 'left' : 'right'}
                      style={{ whiteSpace: 'nowrap' }}
                    >
                      {link ? (
                        <Anchor component={Link} to={link} size="sm" data-testid="chart-row-link">
                          {text}
                        </Anchor>
                      ) : (
                        text
                      )}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
