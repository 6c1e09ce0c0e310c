import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n';
import type { Pager } from './listState';
import { PagedTable } from './PagedTable';

function pager(page: number, total: number): Pager {
  return {
    page,
    pages: Math.ceil(total / 50),
    pageSize: 50,
    total,
    onPage: () => undefined,
    onPageSize: () => undefined,
  };
}

function renderList(rows: string[], listPager: Pager) {
  createI18n('de');
  render(
    <MantineProvider>
      <PagedTable<string>
        testId="names"
        columns={[{ key: 'name', label: 'Name', render: (row) => row }]}
        rows={rows}
        rowKey={(row) => row}
        pager={listPager}
        empty={<p data-testid="names-empty">Keine Einträge im Zeitraum.</p>}
      />
    </MantineProvider>,
  );
}

describe('PagedTable pager', () => {
  it('reads the range of the rows shown', () => {
    renderList(['a', 'b'], pager(1, 2));
    expect(screen.getByTestId('pager-info')).toHaveTextContent('1–2 von 2');
  });

  it('is left out under an empty list, which says why', () => {
    renderList([], pager(1, 0));
    expect(screen.getByTestId('names-empty')).toBeInTheDocument();
    expect(screen.queryByTestId('pager-info')).toBeNull();
  });

  it('stays on a later page that is empty now, to go back', () => {
    renderList([], pager(3, 0));
    expect(screen.getByTestId('pager-prev')).toBeEnabled();
  });
});
