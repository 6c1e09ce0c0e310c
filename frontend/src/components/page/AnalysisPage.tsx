import { Text } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { PageTopic } from '../../app/pages';
import { shiftName } from '../../lib/filters';
import { formatIsoDate } from '../../lib/format';
import { hasViewParams } from '../../lib/viewUrl';
import { useAnalysisFilterControls } from '../filters/filtersContext';
import { EmptyState } from '../layout/EmptyState';
import { PageHeader } from './PageHeader';

interface AnalysisPageProps {
  topic: PageTopic;
  beta?: boolean;
  /** The page's content; until a page has its analysis, the honest "no data yet" state. */
  children?: ReactNode;
  /** Only the machine selector in the header (live pages). */
  vehiclesOnly?: boolean;
}

/**
 * Frame of every analysis page: header with the selectors, then the content. The address
 * always holds the view (period, vehicles, shift, combined): a page reached by the menu or
 * by signing in shows it as soon as the saved settings are read, so the address bar is a
 * link that shows a colleague the same view.
 */
export function AnalysisPage({
  topic,
  beta = false,
  children,
  vehiclesOnly = false,
}: AnalysisPageProps) {
  const { ready, showViewInAddress } = useAnalysisFilterControls();
  const { search } = useLocation();
  const missingView = ready && !hasViewParams(search);
  useEffect(() => {
    if (missingView) {
      showViewInAddress();
    }
  }, [missingView, showViewInAddress]);
  return (
    <section data-testid={`page-${topic}`}>
      <PageHeader topic={topic} beta={beta} vehiclesOnly={vehiclesOnly} />
      {children ?? <NoDataYet topic={topic} />}
    </section>
  );
}

function NoDataYet({ topic }: { topic: PageTopic }) {
  const { t, i18n } = useTranslation();
  const { vehicles, allVehicles, selectedMachines, from, to, shift, scopeSites } =
    useAnalysisFilterControls();
  const machines =
    selectedMachines.length === 0 || vehicles.length === allVehicles.length
      ? t('filters.allMachines')
      : t('state.machinesCount', { count: vehicles.length });
  const shiftLabel =
    shift === 'all'
      ? t('filters.allShifts')
      : (shiftName(shift, scopeSites) ?? t('filters.allShifts'));
  return (
    <EmptyState kind="noData">
      <Text fw={500}>{t(`pages.${topic}.summary`)}</Text>
      <Text size="sm" c="dimmed" data-testid="no-data-filters">
        {t('state.noDataFilters', {
          machines,
          from: formatIsoDate(from, i18n.language),
          to: formatIsoDate(to, i18n.language),
          shift: shiftLabel,
        })}
      </Text>
    </EmptyState>
  );
}
