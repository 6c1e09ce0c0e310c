import { useCallback, useContext } from 'react';
import { useNavigate } from 'react-router';
import { type DrillTarget, drillLocation } from '../../lib/drillDown';
import type { ViewState } from '../../lib/viewUrl';
import { AnalysisFiltersContext } from '../filters/filtersContext';

export interface DrillDown {
  /** Where a target lies (for links); null outside the shell. */
  locationOf: (target: DrillTarget) => { pathname: string; search: string } | null;
  /** Opens a target (a chart element's click). */
  open: (target: DrillTarget) => void;
}

/**
 * Drill-down from the current view: the targets keep the period, shift and combined flag
 * (and the vehicles, unless the target names one). Outside the shell (no filters) there
 * is nothing to drill into.
 */
export function useDrillDown(): DrillDown {
  const filters = useContext(AnalysisFiltersContext);
  const navigate = useNavigate();
  const current: ViewState | null = filters
    ? {
        relativeRange: filters.relativeRange,
        mode: filters.mode,
        from: filters.from,
        to: filters.to,
        vehicles: filters.selectedMachines,
        shift: filters.shift,
        combined: filters.combined,
      }
    : null;
  const viewKey = current ? JSON.stringify(current) : '';
  const locationOf = useCallback(
    (target: DrillTarget) =>
      viewKey ? drillLocation(target, JSON.parse(viewKey) as ViewState) : null,
    [viewKey],
  );
  const open = useCallback(
    (target: DrillTarget) => {
      const location = locationOf(target);
      if (location) {
        void navigate(location);
      }
    },
    [locationOf, navigate],
  );
  return { locationOf, open };
}
