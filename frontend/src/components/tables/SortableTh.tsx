import { Group, Table, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowsSort, IconArrowUp } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { parseSort } from './listState';

interface SortableThProps {
  label: ReactNode;
  /** The column's sort key; none: the header is a plain label. */
  sortKey?: string;
  /** The sort in effect (`-` prefix: descending); empty: none. */
  sort: string;
  onSort?: (column: string) => void;
  align?: 'left' | 'right';
  className?: string;
}

/** A table header that sorts its list: the direction as an arrow and as `aria-sort`. */
export function SortableTh({ label, sortKey, sort, onSort, align, className }: SortableThProps) {
  const { column: sortColumn, descending } = parseSort(sort, sort);
  const active = sortKey !== undefined && sortColumn === sortKey;
  return (
    <Table.Th
      ta={align ?? 'left'}
      className={className}
      // aria-sort belongs to the column header, not to the button inside it.
      aria-sort={!sortKey ? undefined : active ? (descending ? 'descending' : 'ascending') : 'none'}
    >
      {sortKey ? (
        <UnstyledButton
          onClick={() => onSort?.(sortKey)}
          data-testid={`sort-${sortKey}`}
          fw={600}
          fz="sm"
        >
          {/* A wrapped label keeps its column's alignment (numbers: right). */}
          <Group
            gap={4}
            wrap="nowrap"
            ta={align ?? 'left'}
            justify={align === 'right' ? 'flex-end' : 'flex-start'}
          >
            {label}
            {!active ? (
              <IconArrowsSort size={14} opacity={0.4} />
            ) : descending ? (
              <IconArrowDown size={14} />
            ) : (
              <IconArrowUp size={14} />
            )}
          </Group>
        </UnstyledButton>
      ) : (
        label
      )}
    </Table.Th>
  );
}
