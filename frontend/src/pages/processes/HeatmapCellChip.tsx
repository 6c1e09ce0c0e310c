import { useTranslation } from 'react-i18next';
import type { HeatmapCell } from '../../api/analytics-processes';
import { FilterChip } from '../../components/filters/FilterChip';
import { weekdayNames } from '../../lib/format';

/** `10:00–11:00`: the wall-clock hour of a heatmap cell. */
export function cellHours(hour: number): string {
  const clock = (value: number) => `${String(value % 24).padStart(2, '0')}:00`;
  return `${clock(hour)}–${clock(hour + 1)}`;
}

/**
 * The workflows' heatmap filter (a cell's or weekday's drill-down from productivity/analysis):
 * the weekday and hour the orders ended in, and a way out.
 */
export function HeatmapCellChip({ cell, onClear }: { cell: HeatmapCell; onClear: () => void }) {
  const { t, i18n } = useTranslation();
  const weekday = weekdayNames(i18n.language, 'long')[cell.weekday] ?? '';
  const when = cell.hour === null ? weekday : `${weekday}, ${cellHours(cell.hour)}`;
  return (
    <FilterChip
      label={t('processes.heatmapCellFilter', { when })}
      clearLabel={t('processes.clearHeatmapCellFilter')}
      testId="workflows-cell-filter"
      onClear={onClear}
    />
  );
}
