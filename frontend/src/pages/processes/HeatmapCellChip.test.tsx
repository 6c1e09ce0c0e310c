import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { HeatmapCell } from '../../api/analytics-processes';
import { createI18n } from '../../i18n';
import { cellHours, HeatmapCellChip } from './HeatmapCellChip';

function renderChip(cell: HeatmapCell, language: 'en' | 'de', onClear = () => {}) {
  createI18n(language);
  return render(
    <MantineProvider>
      <HeatmapCellChip cell={cell} onClear={onClear} />
    </MantineProvider>,
  );
}

describe('HeatmapCellChip', () => {
  it('names the weekday and hour the orders ended in, in English and German', () => {
    const { unmount } = renderChip({ weekday: 0, hour: 10 }, 'en');
    expect(screen.getByTestId('workflows-cell-filter')).toHaveTextContent(
      'Orders ended: Monday, 10:00–11:00',
    );
    unmount();
    renderChip({ weekday: 6, hour: null }, 'de');
    expect(screen.getByTestId('workflows-cell-filter')).toHaveTextContent(
      'Beendete Aufträge: Sonntag',
    );
  });

  it('clears the filter with its button', () => {
    const onClear = vi.fn();
    renderChip({ weekday: 2, hour: 23 }, 'en', onClear);
    expect(screen.getByTestId('workflows-cell-filter')).toHaveTextContent('23:00–00:00');
    fireEvent.click(screen.getByTestId('workflows-cell-filter-clear'));
    expect(onClear).toHaveBeenCalledOnce();
  });

  it('writes an hour as its wall-clock span', () => {
    expect(cellHours(0)).toBe('00:00–01:00');
    expect(cellHours(9)).toBe('09:00–10:00');
  });
});
