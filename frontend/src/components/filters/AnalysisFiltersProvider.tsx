import { notifications } from '@mantine/notifications';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ApiFailure } from '../../api/client';
import {
  saveCombinedMode,
  saveDateFilter,
  saveDateFilterAndShift,
  saveRelativeRange,
  saveVehiclesAndMode,
  saveWorkflowShift,
} from '../../api/settings';
import type { AppSettings, Id, WorkflowShift } from '../../api/types';
import { focusDay, rangeFor, todayIso } from '../../lib/dateRange';
import {
  defaultDateSelector,
  effectiveVehicles,
  sitesInScope,
  validShift,
} from '../../lib/filters';
import { type RelativeRange, resolveRelativeRange } from '../../lib/relativeRange';
import { serialQueue } from '../../lib/serialQueue';
import { addressShows, decodeView, encodeView, type ViewState } from '../../lib/viewUrl';
import { RefreshProvider } from '../refresh/RefreshProvider';
import {
  type AnalysisFilterControls,
  AnalysisFiltersContext,
  type DateFilter,
} from './filtersContext';
import { useAppSettings, useSites, useUpdateSettingsCache, useVehicles } from './useAppSettings';
import { useLinkRepair } from './useLinkRepair';

// A relative range is read against the clock this often (today becomes yesterday at midnight).
const CLOCK_TICK_MS = 60_000;

/**
 * Holds the filters of the page headers. The view is the hash route's query where it has
 * one (a shared link wins over the saved settings for that view), else the saved settings.
 * Every change updates the loaded settings at once, saves through its own saved operation
 * (spec section 7) and writes the whole view into the query, so the address is a link to it
 * (the menu keeps the query from page to page).
 */
export function AnalysisFiltersProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const settings = useAppSettings();
  const vehiclesQuery = useVehicles();
  const sitesQuery = useSites();
  const update = useUpdateSettingsCache();
  const location = useLocation();
  const navigate = useNavigate();
  const [now, setNow] = useState(() => new Date());
  // The day the user is looking at, kept across mode switches (not saved).
  const [focus, setFocus] = useState<string | null>(null);

  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), CLOCK_TICK_MS);
    return () => window.clearInterval(timer);
  }, []);
  const readClock = useCallback(() => setNow(new Date()), []);

  // Saved one after the other: quick changes (three clicks on "previous week") must reach
  // the server in the order made, or an older period could end up saved.
  const [enqueue] = useState(serialQueue);
  const save = useCallback(
    (operation: () => Promise<AppSettings>) => {
      enqueue(operation).catch((error: unknown) => {
        // Server failures are already in the error overlay; a lost connection is not.
        if (error instanceof ApiFailure && error.httpStatus === 0) {
          notifications.show({ color: 'red', message: t('filters.saveFailed') });
        }
      });
    },
    [t, enqueue],
  );

  const saved = settings.data?.dateSelector ?? defaultDateSelector();
  const urlView = useMemo(() => decodeView(location.search), [location.search]);
  // A shift the link names that no site of the user keeps: as if the link named none (the
  // saved one applies), and the user is told (useLinkRepair).
  const unknownShift =
    sitesQuery.data !== undefined &&
    urlView.shift !== undefined &&
    urlView.shift !== 'all' &&
    validShift(urlView.shift, sitesQuery.data) === 'all';
  const view: ViewState = {
    relativeRange:
      urlView.relativeRange !== undefined ? urlView.relativeRange : (saved.relativeRange ?? null),
    mode: urlView.mode ?? saved.mode,
    from: urlView.from ?? saved.from,
    to: urlView.to ?? saved.to,
    vehicles: urlView.vehicles ?? settings.data?.selectedMachines ?? [],
    shift: (unknownShift ? undefined : urlView.shift) ?? saved.workflowShift,
    combined: urlView.combined ?? saved.combined,
  };
  const viewKey = JSON.stringify(view);
  const allVehicles = useMemo(() => vehiclesQuery.data ?? [], [vehiclesQuery.data]);

  useLinkRepair({
    vehicles: vehiclesQuery.data,
    settingsRead: settings.data !== undefined,
    sitesRead: sitesQuery.data !== undefined || sitesQuery.isError,
    unknownShift,
    viewKey,
  });
  const vehicles = useMemo(
    () => effectiveVehicles((JSON.parse(viewKey) as ViewState).vehicles, allVehicles),
    [viewKey, allVehicles],
  );
  const scopeSites = useMemo(
    () => sitesInScope(sitesQuery.data ?? [], vehicles),
    [sitesQuery.data, vehicles],
  );
  const site = scopeSites[0];
  const siteClock = useMemo(() => ({ timeZone: site?.timeZone, shifts: site?.shifts }), [site]);
  const resolved = view.relativeRange
    ? resolveRelativeRange(view.relativeRange, { ...siteClock, now })
    : { mode: view.mode, from: view.from, to: view.to, shift: undefined, hours: undefined };
  const hours = resolved.hours ?? null;
  const chosenShift = resolved.shift ?? view.shift;
  const shift = sitesQuery.data ? validShift(chosenShift, scopeSites) : chosenShift;
  // A relative range needs the site's time zone (and shifts) before it means any days;
  // without sites (failed to load) it is read in the browser's zone.
  const ready =
    settings.data !== undefined &&
    vehiclesQuery.data !== undefined &&
    (view.relativeRange === null || sitesQuery.data !== undefined || sitesQuery.isError);

  const value = useMemo<AnalysisFilterControls>(() => {
    const current = JSON.parse(viewKey) as ViewState;
    const sites = sitesQuery.data ?? [];
    const scopeOf = (ids: readonly Id[]) =>
      sitesInScope(sites, effectiveVehicles(ids, allVehicles));
    const showView = (patch: Partial<ViewState>) => {
      if (!addressShows(location.pathname)) {
        return; // the user has gone on to another page meanwhile
      }
      const next = { ...current, ...patch };
      navigate(
        { pathname: location.pathname, search: encodeView(next, location.search) },
        { replace: true },
      );
    };
    const setSelector = (patch: Partial<AppSettings['dateSelector']>) =>
      update((settingsNow) => ({
        ...settingsNow,
        dateSelector: { ...settingsNow.dateSelector, ...patch },
      }));
    const setPeriod = ({ mode, from, to }: DateFilter, shiftToo?: WorkflowShift) => {
      setSelector({
        mode,
        from,
        to,
        relativeRange: null,
        ...(shiftToo === undefined ? {} : { workflowShift: shiftToo }),
      });
      showView({
        relativeRange: null,
        mode,
        from,
        to,
        ...(shiftToo === undefined ? {} : { shift: shiftToo }),
      });
    };

    return {
      ready,
      mode: resolved.mode,
      from: resolved.from,
      to: resolved.to,
      hours,
      relativeRange: current.relativeRange,
      focus,
      combined: current.combined,
      shift,
      vehicles,
      selectedMachines: current.vehicles,
      showViewInAddress: () => {
        showView({});
        return encodeView(current, location.search);
      },
      allVehicles,
      scopeSites,
      setDateFilter: ({ mode, from, to }: DateFilter, focusHint?: string) => {
        setFocus(focusDay({ from, to }, { focus: focusHint ?? focus }));
        setPeriod({ mode, from, to });
        save(() => saveDateFilter({ mode, from, to }));
      },
      setRelativeRange: (relativeRange: RelativeRange) => {
        const period = resolveRelativeRange(relativeRange, { ...siteClock, now: new Date() });
        const { mode, from, to } = period;
        setFocus(null);
        setSelector({ mode, from, to, relativeRange });
        showView({ relativeRange, mode, from, to });
        save(() => saveRelativeRange({ mode, from, to, relativeRange }));
      },
      setCombined: (combined: boolean) => {
        setSelector({ combined });
        showView({ combined });
        save(() => saveCombinedMode({ combined }));
      },
      setMachines: (ids: Id[]) => {
        update((settingsNow) => ({ ...settingsNow, selectedMachines: ids }));
        save(() => saveVehiclesAndMode({ selectedMachines: ids, combined: current.combined }));
        if (current.shift !== 'all' && validShift(current.shift, scopeOf(ids)) === 'all') {
          // The chosen shift belongs to no site of the new selection any more.
          setSelector({ workflowShift: 'all' });
          showView({ vehicles: ids, shift: 'all' });
          save(() => saveWorkflowShift({ workflowShift: 'all' }));
        } else {
          showView({ vehicles: ids });
        }
      },
      setShift: (workflowShift: WorkflowShift) => {
        if (current.relativeRange?.endsWith('Shift')) {
          // Another shift than the one the range names: the day of that range, fixed.
          const period = { mode: resolved.mode, from: resolved.from, to: resolved.to };
          setPeriod(period, workflowShift);
          save(() => saveDateFilterAndShift({ ...period, workflowShift }));
          return;
        }
        setSelector({ workflowShift });
        showView({ shift: workflowShift });
        save(() => saveWorkflowShift({ workflowShift }));
      },
      resetPeriodAndShift: () => {
        const range = rangeFor('week', todayIso());
        setFocus(null);
        setPeriod({ mode: 'week', ...range }, 'all');
        save(() => saveDateFilterAndShift({ mode: 'week', ...range, workflowShift: 'all' }));
      },
    };
  }, [
    viewKey,
    resolved.mode,
    resolved.from,
    resolved.to,
    hours,
    shift,
    ready,
    focus,
    allVehicles,
    vehicles,
    scopeSites,
    siteClock,
    sitesQuery.data,
    location.pathname,
    location.search,
    navigate,
    update,
    save,
  ]);

  return (
    <AnalysisFiltersContext.Provider value={value}>
      <RefreshProvider onRefresh={readClock}>{children}</RefreshProvider>
    </AnalysisFiltersContext.Provider>
  );
}
