import { useComputedColorScheme } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { chartTheme } from './theme';
import type { ChartContext } from './types';

/** Language, theme and translation for the pure transforms. */
export function useChartContext(): ChartContext {
  const { t, i18n } = useTranslation();
  const scheme = useComputedColorScheme('light');
  const language = i18n.language;
  return useMemo(
    () => ({
      language,
      theme: chartTheme(scheme),
      t: (key: string, options?: Record<string, unknown>) => t(key, options ?? {}) as string,
    }),
    [language, scheme, t],
  );
}
