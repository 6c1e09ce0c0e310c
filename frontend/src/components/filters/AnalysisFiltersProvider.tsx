import { notifications } from '@mantine/notifications';
import { type ReactNode, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure } from '../../api/client';
import {
  saveCombinedMode,
  saveDateFilter,
  saveDateFilterAndShift,
  saveVehiclesAndMode,
  saveWorkflowShift,
} from '../../api/settings';
import type { AppSettings, Id, WorkflowShift } from '../../api/types';
import { rangeFor, todayIso } from '../../lib/dateRange';
import {
  defaultDateSelector,
  effectiveVehicles,
  sitesInScope,
  validShift,
} from '../../lib/filters';
import {
  type AnalysisFilterControls,
  AnalysisFiltersContext,
  type DateFilter,
} from './filtersContext';
import { useAppSettings, useSites, useUpdateSettingsCache, useVehicles } from './useAppSettings';

/**
 * Holds the saved filters of the page headers. Every change updates the loaded settings at
 * once and saves through its own saved operation (spec section 7).
 */
export function AnalysisFiltersProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const settings = useAppSettings();
  const vehiclesQuery = useVehicles();
  const sitesQuery = useSites();
  const update = useUpdateSettingsCache();

  const save = useCallback(
    (operation: () => Promise<AppSettings>) => {
      operation().catch((error: unknown) => {
        // Server failures are already in the error overlay; a lost connection is not.
        if (error instanceof ApiFailure && error.httpStatus === 0) {
          notifications.show({ color: 'red', message: t('filters.saveFailed') });
        }
      });
    },
    [t],
  );

  const value = useMemo<AnalysisFilterControls>(() => {
    const saved = settings.data?.dateSelector ?? defaultDateSelector();
    const selectedMachines = settings.data?.selectedMachines ?? [];
    const allVehicles = vehiclesQuery.data ?? [];
    const vehicles = effectiveVehicles(selectedMachines, allVehicles);
    const scopeSites = sitesInScope(sitesQuery.data ?? [], vehicles);
    const shift = sitesQuery.data
      ? validShift(saved.workflowShift, scopeSites)
      : saved.workflowShift;
    const setSelector = (patch: Partial<AppSettings['dateSelector']>) =>
      update((current) => ({ ...current, dateSelector: { ...current.dateSelector, ...patch } }));

    return {
      ready: settings.data !== undefined && vehiclesQuery.data !== undefined,
      mode: saved.mode,
      from: saved.from,
      to: saved.to,
      combined: saved.combined,
      shift,
      vehicles,
      selectedMachines,
      allVehicles,
      scopeSites,
      setDateFilter: ({ mode, from, to }: DateFilter) => {
        setSelector({ mode, from, to });
        save(() => saveDateFilter({ mode, from, to }));
      },
      setCombined: (combined: boolean) => {
        setSelector({ combined });
        save(() => saveCombinedMode({ combined }));
      },
      setMachines: (ids: Id[]) => {
        update((current) => ({ ...current, selectedMachines: ids }));
        save(() => saveVehiclesAndMode({ selectedMachines: ids, combined: saved.combined }));
        const nextScope = sitesInScope(sitesQuery.data ?? [], effectiveVehicles(ids, allVehicles));
        if (saved.workflowShift !== 'all' && validShift(saved.workflowShift, nextScope) === 'all') {
          // The chosen shift belongs to no site of the new selection any more.
          setSelector({ workflowShift: 'all' });
          save(() => saveWorkflowShift({ workflowShift: 'all' }));
        }
      },
      setShift: (workflowShift: WorkflowShift) => {
        setSelector({ workflowShift });
        save(() => saveWorkflowShift({ workflowShift }));
      },
      resetPeriodAndShift: () => {
        const range = rangeFor('week', todayIso());
        setSelector({ mode: 'week', ...range, workflowShift: 'all' });
        save(() => saveDateFilterAndShift({ mode: 'week', ...range, workflowShift: 'all' }));
      },
    };
  }, [settings.data, vehiclesQuery.data, sitesQuery.data, update, save]);

  return (
    <AnalysisFiltersContext.Provider value={value}>{children}</AnalysisFiltersContext.Provider>
  );
}
