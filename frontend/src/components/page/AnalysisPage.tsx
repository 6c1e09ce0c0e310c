import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageTopic } from '../../app/pages';
import { shiftName } from '../../lib/filters';
import { formatIsoDate } from '../../lib/format';
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

/** Frame of every analysis page: header with the selectors, then the content. */
export function AnalysisPage({
  topic,
  beta = false,
  children,
  vehiclesOnly = false,
}: AnalysisPageProps) {
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
