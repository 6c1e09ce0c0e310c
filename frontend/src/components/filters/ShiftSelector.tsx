import { type ComboboxItem, type ComboboxItemGroup, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ALL_SHIFTS_VALUE, shiftFromValue, shiftGroups } from '../../lib/filters';
import { useAnalysisFilterControls } from './filtersContext';

/** Shifts of the sites in scope plus "all shifts". */
export function ShiftSelector() {
  const { t } = useTranslation();
  const { shift, scopeSites, setShift } = useAnalysisFilterControls();
  const groups = shiftGroups(scopeSites, t('filters.allShifts'));
  // The "all shifts" option sits in an unnamed first group; flatten it for a clean list.
  const data: Array<ComboboxItem | ComboboxItemGroup<ComboboxItem>> = groups.flatMap(
    (group): Array<ComboboxItem | ComboboxItemGroup<ComboboxItem>> =>
      group.group === '' ? group.items : [group],
  );
  return (
    <Select
      size="sm"
      w={{ base: '100%', xs: 200 }}
      label={t('filters.shift')}
      data={data}
      value={shift === 'all' ? ALL_SHIFTS_VALUE : String(shift)}
      onChange={(value) =>
        setShift(shiftFromValue(value === null ? null : String(value), scopeSites))
      }
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
      data-testid="shift-selector"
    />
  );
}
