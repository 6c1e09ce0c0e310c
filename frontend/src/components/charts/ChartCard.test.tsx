import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../i18n';
import { ChartCard, type ChartStatus } from './ChartCard';
import * as csv from './csv';
import type { RowLink } from './DataTable';
import { ModelChartCard } from './ModelChartCard';
import type { TableData } from './types';

const table: TableData = {
  columns: [
    { key: 'vehicle', label: 'Vehicle', format: 'text' },
    { key: 'availability', label: 'Availability', format: 'share' },
  ],
  rows: [{ vehicle: 'AGV 01', availability: 0.5 }],
};

function card(
  status: ChartStatus,
  openTable = false,
  onViewChange?: (view: 'chart' | 'table') => void,
  { data = table, rowLink }: { data?: TableData; rowLink?: RowLink } = {},
) {
  return (
    <MemoryRouter>
      <MantineProvider>
        <ChartCard
          name="demo"
          title="Demo"
          status={status}
          table={data}
          rowLink={rowLink}
          exportScope={{ page: 'productivityAnalysis', from: '2026-11-01', to: '2026-11-21' }}
          openTable={openTable}
          onViewChange={onViewChange}
        >
          <div data-testid="the-chart" />
        </ChartCard>
      </MantineProvider>
    </MemoryRouter>
  );
}

function renderCard(status: ChartStatus, language: 'en' | 'de' = 'en') {
  createI18n(language);
  return render(card(status));
}

describe('ChartCard', () => {
  it('toggles between chart and table and exports the table as CSV', () => {
    const download = vi.spyOn(csv, 'downloadCsv').mockImplementation(() => undefined);
    renderCard({ kind: 'ready' }, 'de');
    const card = screen.getByTestId('chart-demo');
    expect(within(card).getByTestId('the-chart')).toBeInTheDocument();
    fireEvent.click(within(card).getByTestId('chart-table-toggle'));
    expect(card).toHaveAttribute('data-view', 'table');
    expect(within(card).getByTestId('chart-table')).toHaveTextContent(/50,0\s%/);
    fireEvent.click(within(card).getByTestId('csv-export'));
    expect(download).toHaveBeenCalledWith({
      csv: '\uFEFFVehicle;Availability (%)\r\nAGV 01;50\r\n',
      fileName: 'fleetscope_productivity-analysis_demo_2026-11-01_2026-11-21.csv',
    });
  });

  it('opens its table when a link asks for it, once the data is there, and toggles back', () => {
    createI18n('en');
    const { rerender } = render(card({ kind: 'ready' }));
    const shown = screen.getByTestId('chart-demo');
    expect(shown).toHaveAttribute('data-view', 'chart');
    // A link on the same page (a tile) keeps the card mounted.
    const viewChanged = vi.fn();
    rerender(card({ kind: 'ready' }, true, viewChanged));
    expect(shown).toHaveAttribute('data-view', 'table');
    expect(viewChanged).not.toHaveBeenCalled();
    fireEvent.click(within(shown).getByTestId('chart-table-toggle'));
    expect(shown).toHaveAttribute('data-view', 'chart');
    // The page clears the link then, so that following it again opens the table again.
    expect(viewChanged).toHaveBeenCalledWith('chart');
    rerender(card({ kind: 'ready' }, false, viewChanged));
    rerender(card({ kind: 'ready' }, true, viewChanged));
    expect(shown).toHaveAttribute('data-view', 'table');
    // Opened by a link from another page: the chart while loading, then the table.
    rerender(<div />);
    rerender(card({ kind: 'loading' }, true));
    expect(screen.getByTestId('chart-demo')).toHaveAttribute('data-view', 'chart');
    rerender(card({ kind: 'ready' }, true));
    expect(screen.getByTestId('chart-demo')).toHaveAttribute('data-view', 'table');
    expect(within(screen.getByTestId('chart-demo')).getByTestId('chart-table')).toHaveTextContent(
      'AGV 01',
    );
  });

  it('marks the values of an approximate column with ≈ and exports them plain', () => {
    const download = vi.spyOn(csv, 'downloadCsv').mockImplementation(() => undefined);
    createI18n('en');
    const approximate: TableData = {
      columns: [
        { key: 'vehicle', label: 'Vehicle', format: 'text' },
        { key: 'p50', label: 'p50', format: 'duration', approximate: true },
      ],
      rows: [
        { vehicle: 'AGV 01', p50: 7200 },
        { vehicle: 'AGV 02', p50: null },
      ],
    };
    render(card({ kind: 'ready' }, false, undefined, { data: approximate }));
    fireEvent.click(screen.getByTestId('chart-table-toggle'));
    const cells = within(screen.getByTestId('chart-table')).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toEqual([
      'AGV 01',
      '≈ 2 h 00 min',
      'AGV 02',
      '–',
    ]);
    fireEvent.click(screen.getByTestId('csv-export'));
    expect(download).toHaveBeenCalledWith(
      expect.objectContaining({ csv: '\uFEFFVehicle,p50 (s)\r\nAGV 01,7200\r\nAGV 02,\r\n' }),
    );
  });

  it('sorts its table view by a header, each row keeping its drill-down link', () => {
    createI18n('en');
    const ranked: TableData = {
      columns: [
        { key: 'vehicle', label: 'Vehicle', format: 'text' },
        { key: 'availability', label: 'Availability', format: 'share' },
      ],
      rows: [
        { vehicle: 'AGV 02', availability: 0.9 },
        { vehicle: 'AGV 03', availability: null },
        { vehicle: 'AGV 01', availability: 0.5 },
      ],
    };
    render(
      card({ kind: 'ready' }, false, undefined, {
        data: ranked,
        rowLink: (index) => ({ pathname: '/list', search: `?vehicle=${index}` }),
      }),
    );
    fireEvent.click(screen.getByTestId('chart-table-toggle'));
    const tableView = screen.getByTestId('chart-table');
    const links = () =>
      within(tableView)
        .getAllByTestId('chart-row-link')
        .map((link) => [link.textContent, link.getAttribute('href')]);
    // The transform's order first; a number sorts largest first, no value last.
    expect(links().map(([name]) => name)).toEqual(['AGV 02', 'AGV 03', 'AGV 01']);
    fireEvent.click(within(tableView).getByTestId('sort-availability'));
    expect(links()).toEqual([
      ['AGV 02', '/list?vehicle=0'],
      ['AGV 01', '/list?vehicle=2'],
      ['AGV 03', '/list?vehicle=1'],
    ]);
    expect(tableView).toHaveAttribute('data-sort', '-availability');
    // A name sorts A to Z first, then back.
    fireEvent.click(within(tableView).getByTestId('sort-vehicle'));
    expect(links().map(([name]) => name)).toEqual(['AGV 01', 'AGV 02', 'AGV 03']);
    fireEvent.click(within(tableView).getByTestId('sort-vehicle'));
    expect(links().map(([name]) => name)).toEqual(['AGV 03', 'AGV 02', 'AGV 01']);
    expect(within(tableView).getAllByRole('columnheader')[0]).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    // The export has the rows in the view's order, also once the chart is shown again.
    const download = vi.spyOn(csv, 'downloadCsv').mockImplementation(() => undefined);
    fireEvent.click(within(tableView).getByTestId('sort-availability'));
    fireEvent.click(screen.getByTestId('chart-table-toggle'));
    expect(screen.queryByTestId('chart-table')).toBeNull();
    fireEvent.click(screen.getByTestId('csv-export'));
    expect(download).toHaveBeenCalledWith(
      expect.objectContaining({
        csv: '\uFEFFVehicle,Availability (%)\r\nAGV 02,90\r\nAGV 01,50\r\nAGV 03,\r\n',
      }),
    );
    download.mockRestore();
  });

  it('says why it is empty and offers no export', () => {
    renderCard({ kind: 'empty', reason: 'shiftExcludes' });
    const empty = screen.getByTestId('chart-empty');
    expect(empty).toHaveAttribute('data-reason', 'shiftExcludes');
    expect(empty).toHaveTextContent('Nothing in this shift');
    expect(screen.getByTestId('csv-export')).toBeDisabled();
    expect(screen.queryByTestId('the-chart')).toBeNull();
  });

  it('shows loading and an error with retry', () => {
    const retry = vi.fn();
    const { unmount } = renderCard({ kind: 'loading' });
    expect(screen.getByTestId('chart-loading')).toBeInTheDocument();
    unmount();
    renderCard({ kind: 'error', message: 'vehicle 17 not found', onRetry: retry });
    expect(screen.getByTestId('chart-error')).toHaveTextContent('vehicle 17 not found');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalled();
  });
});

describe('ModelChartCard', () => {
  it("shows the model's table in table view and nothing to toggle while loading", () => {
    createI18n('en');
    const exportScope = { page: 'processesAnalysis', from: '2026-11-01', to: '2026-11-21' };
    const { rerender } = render(
      <MantineProvider>
        <ModelChartCard
          name="model"
          title="Model"
          status={{ kind: 'loading' }}
          model={undefined}
          exportScope={exportScope}
        />
      </MantineProvider>,
    );
    expect(screen.getByTestId('chart-loading')).toBeInTheDocument();
    rerender(
      <MantineProvider>
        <ModelChartCard
          name="model"
          title="Model"
          status={{ kind: 'ready' }}
          model={{ option: {}, table }}
          exportScope={exportScope}
        />
      </MantineProvider>,
    );
    const card = screen.getByTestId('chart-model');
    fireEvent.click(within(card).getByTestId('chart-table-toggle'));
    expect(within(card).getByTestId('chart-table')).toHaveTextContent('AGV 01');
  });
});
