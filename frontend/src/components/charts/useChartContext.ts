import { useComputedColorScheme } from '@mantine/core';
import { useContext, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AnalysisFiltersContext } from '../filters/filtersContext';
import { chartTheme } from './theme';
import type { ChartContext } from './types';

/**
 * The time zone of the selected vehicles' sites when they share one (times in tables and
 * CSV files are the site's, as in the server's CSV); undefined (the browser's) otherwise.
 */
export function useSiteTimeZone(): string | undefined {
  const filters = useContext(AnalysisFiltersContext);
  const zones = new Set((filters?.scopeSites ?? []).map((site) => site.timeZone).filter(Boolean));
  return zones.size === 1 ? [...zones][0] : undefined;
}

/** Language, theme, translation and the sites' time zone for the pure transforms. */
export function useChartContext(): ChartContext {
  const { t, i18n } = useTranslation();
  const scheme = useComputedColorScheme('light');
  const language = i18n.language;
  const timeZone = useSiteTimeZone();
  return useMemo(
    () => ({
      language,
      theme: chartTheme(scheme),
      t: (key: string, options?: Record<string, unknown>) => t(key, options ?? {}) as string,
      timeZone,
    }),
    [language, scheme, t, timeZone],
  );
}
