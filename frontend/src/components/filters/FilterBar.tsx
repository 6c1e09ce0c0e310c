import { ActionIcon, Tooltip } from '@mantine/core';
import { IconRestore } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DateSelector } from './DateSelector';
import { useAnalysisFilterControls } from './filtersContext';
import { CombinedSwitch, MachineSelector } from './MachineSelector';
import { ShiftSelector } from './ShiftSelector';

/**
 * The selectors of every analysis page header; each saves on change. `vehiclesOnly`: a live
 * page (statusboard) shows the present state of the selected vehicles, so period, shift and
 * combined would do nothing there and are left out.
 */
export function FilterBar({ vehiclesOnly = false }: { vehiclesOnly?: boolean }) {
  const { t } = useTranslation();
  const { resetPeriodAndShift } = useAnalysisFilterControls();
  if (vehiclesOnly) {
    return (
      <fieldset className="fs-filters" data-testid="filter-bar" aria-label={t('filters.label')}>
        <MachineSelector />
      </fieldset>
    );
  }
  return (
    <fieldset className="fs-filters" data-testid="filter-bar" aria-label={t('filters.label')}>
      <DateSelector />
      <MachineSelector />
      <ShiftSelector />
      <CombinedSwitch />
      <Tooltip label={t('filters.reset')}>
        <ActionIcon
          variant="subtle"
          size="lg"
          mb={2}
          onClick={resetPeriodAndShift}
          aria-label={t('filters.reset')}
          data-testid="filters-reset"
        >
          <IconRestore size={18} />
        </ActionIcon>
      </Tooltip>
    </fieldset>
  );
}
