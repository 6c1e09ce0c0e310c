import { useTranslation } from 'react-i18next';
import { type MapCellFilter, mapCellArea } from '../../api/analytics-failures';
import { FilterChip } from '../../components/filters/FilterChip';
import { formatNumber } from '../../lib/format';

/** The history's map-cell filter (a density cell's drill-down): its area, and a way out. */
export function CellFilterChip({
  filter,
  onClear,
}: {
  filter: MapCellFilter;
  onClear: () => void;
}) {
  const { t, i18n } = useTranslation();
  const area = mapCellArea(filter);
  const metres = (value: number) =>
    formatNumber(value, i18n.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const label = area
    ? t('failures.cellFilter', {
        map: filter.mapId,
        x0: metres(area.x0),
        x1: metres(area.x1),
        y0: metres(area.y0),
        y1: metres(area.y1),
      })
    : filter.mapId;
  return (
    <FilterChip
      label={label}
      clearLabel={t('failures.clearCellFilter')}
      testId="error-history-cell-filter"
      onClear={onClear}
    />
  );
}
