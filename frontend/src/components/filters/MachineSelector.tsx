import { MultiSelect, Switch, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { idsFromValues, vehicleGroups } from '../../lib/filters';
import { useAnalysisFilterControls } from './filtersContext';

/**
 * Multi-select of the visible vehicles, grouped by site, the retired ones last; empty means all
 * machines (the server leaves out those retired before the period compared with).
 */
export function MachineSelector() {
  const { t } = useTranslation();
  const { selectedMachines, allVehicles, setMachines } = useAnalysisFilterControls();
  const known = new Set(allVehicles.map((vehicle) => String(vehicle.id)));
  const value = selectedMachines.map(String).filter((id) => known.has(id));
  return (
    <MultiSelect
      size="sm"
      w={{ base: '100%', xs: 230 }}
      label={t('filters.machines')}
      placeholder={value.length === 0 ? t('filters.allMachines') : undefined}
      data={vehicleGroups(allVehicles, t('filters.retiredGroup'))}
      value={value}
      onChange={(values) => setMachines(idsFromValues(values, allVehicles))}
      searchable
      clearable
      nothingFoundMessage={t('filters.noMachineMatches')}
      comboboxProps={{ withinPortal: true }}
      styles={{ inputField: { minWidth: 24, flexBasis: 24 } }}
      data-testid="machine-selector"
    />
  );
}

export function CombinedSwitch() {
  const { t } = useTranslation();
  const { combined, setCombined } = useAnalysisFilterControls();
  return (
    <Tooltip label={t('filters.combinedHint')} multiline w={220}>
      <Switch
        label={t('filters.combined')}
        checked={combined}
        onChange={(event) => setCombined(event.currentTarget.checked)}
        data-testid="combined-switch"
        mb={8}
      />
    </Tooltip>
  );
}
