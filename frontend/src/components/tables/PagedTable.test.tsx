import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../i18n';
import { DrillLink } from '../drill/DrillLink';
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

describe('PagedTable rows that open a drill-down', () => {
  function renderLinkedList(onRowClick: (row: string) => void) {
    createI18n('en');
    render(
      <MemoryRouter>
        <MantineProvider>
          <PagedTable<string>
            testId="names"
            columns={[
              {
                key: 'name',
                label: 'Name',
                render: (row) => <DrillLink to={`/list?open=${row}`}>{row}</DrillLink>,
              },
              { key: 'count', label: 'Count', render: () => '3' },
            ]}
            rows={['pick', 'drop']}
            rowKey={(row) => row}
            rowTestId={(row) => `row-${row}`}
            onRowClick={onRowClick}
          />
        </MantineProvider>
      </MemoryRouter>,
    );
  }

  it('offers each row as a link, not as a focusable row', () => {
    renderLinkedList(() => undefined);
    expect(screen.getByRole('link', { name: 'pick' })).toHaveAttribute('href', '/list?open=pick');
    expect(screen.getByRole('link', { name: 'drop' })).toHaveAttribute('href', '/list?open=drop');
    expect(screen.getByTestId('row-pick')).not.toHaveAttribute('tabindex');
  });

  it("opens a row clicked anywhere, and leaves a click on the row's link to the link", () => {
    const opened = vi.fn();
    renderLinkedList(opened);
    fireEvent.click(screen.getByTestId('row-drop').querySelectorAll('td')[1] as HTMLElement);
    expect(opened).toHaveBeenCalledExactlyOnceWith('drop');
    fireEvent.click(screen.getByRole('link', { name: 'pick' }));
    expect(opened).toHaveBeenCalledTimes(1);
  });
});
