import { createContext, useContext } from 'react';
import type { DateMode, Id, Site, Vehicle, WorkflowShift } from '../../api/types';
import type { RelativeRange } from '../../lib/relativeRange';

export interface DateFilter {
  mode: DateMode;
  from: string;
  to: string;
}

/** What later pages need to query their data. */
export interface AnalysisFilters {
  /** Settings are loaded; before that the values are defaults. */
  ready: boolean;
  mode: DateMode;
  from: string;
  to: string;
  /** A rolling period (the last 24 hours): its hours up to now, sent instead of from/to
   * (which then only name its days); null for days. */
  hours: number | null;
  /** The machines in scope: the selection, or every visible vehicle when none is selected. */
  vehicles: Vehicle[];
  combined: boolean;
  shift: WorkflowShift;
}

export interface AnalysisFilterControls extends AnalysisFilters {
  /** The relative range shown (from/to are what it means now), or null for fixed dates. */
  relativeRange: RelativeRange | null;
  /** The day the user last looked at, kept when the mode changes (null: none yet). */
  focus: string | null;
  selectedMachines: Id[];
  allVehicles: Vehicle[];
  /** Sites of the machines in scope (their shifts can be chosen). */
  scopeSites: Site[];
  /** A fixed period; `focus`: the day in it the user looks at (a picked day). */
  setDateFilter: (filter: DateFilter, focus?: string) => void;
  setRelativeRange: (range: RelativeRange) => void;
  /** Writes the whole view into the hash route's query; returns that query (for a link). */
  showViewInAddress: () => string;
  setCombined: (combined: boolean) => void;
  setMachines: (ids: Id[]) => void;
  setShift: (shift: WorkflowShift) => void;
  resetPeriodAndShift: () => void;
}

export const AnalysisFiltersContext = createContext<AnalysisFilterControls | null>(null);

export function useAnalysisFilterControls(): AnalysisFilterControls {
  const value = useContext(AnalysisFiltersContext);
  if (!value) {
    throw new Error('useAnalysisFilters must be used inside AnalysisFiltersProvider (the shell)');
  }
  return value;
}

/** {from, to, hours, vehicles, combined, shift} (plus mode and ready) for the analysis pages. */
export function useAnalysisFilters(): AnalysisFilters {
  const { ready, mode, from, to, hours, vehicles, combined, shift } = useAnalysisFilterControls();
  return { ready, mode, from, to, hours, vehicles, combined, shift };
}
