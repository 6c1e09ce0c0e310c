import { Badge, CloseButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type MapCellFilter, mapCellArea } from '../../api/analytics-failures';
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
    <Badge
      size="lg"
      variant="light"
      tt="none"
      mb={4}
      data-testid="error-history-cell-filter"
      rightSection={
        <CloseButton
          size="xs"
          onClick={onClear}
          aria-label={t('failures.clearCellFilter')}
          data-testid="error-history-cell-filter-clear"
        />
      }
    >
      {label}
    </Badge>
  );
}
