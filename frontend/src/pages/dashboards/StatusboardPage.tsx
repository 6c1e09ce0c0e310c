import { Alert, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { failureText } from '../../api/client';
import { isDisplayModeRequested } from '../../app/layout';
import { useUrlSelection } from '../../components/drill/useUrlSelection';
import { useAnalysisFilterControls } from '../../components/filters/filtersContext';
import { EmptyState } from '../../components/layout/EmptyState';
import { AnalysisPage } from '../../components/page/AnalysisPage';
import { DRILL_PARAMS } from '../../lib/drillDown';
import { localeFor } from '../../lib/format';
import { LiveIndicator, StateCounts, StatusTiles } from './StatusTiles';
import { DEFAULT_STATE_ORDER } from './statusboardModel';
import { useNow, useStatusboard } from './useStatusboard';

/**
 * dashboards/statusboard (beta): one live tile per vehicle, worst state first. With
 * `?displayMode=true` (wall TV) the shell hides the navigation and the page drops the
 * selectors for larger tiles.
 */
export default function StatusboardPage() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const displayMode = isDisplayModeRequested(location.search, window.location.search);
  const filters = useAnalysisFilterControls();
  const hasVehicles = filters.vehicles.length > 0;
  // Display mode has no selectors: a saved selection of some vehicles is said in the title.
  const narrowed = filters.vehicles.length < filters.allVehicles.length;
  const { board, live, snapshot } = useStatusboard(
    {
      from: filters.from,
      to: filters.to,
      vehicles: filters.vehicles,
      combined: filters.combined,
      shift: filters.shift,
    },
    filters.ready && hasVehicles,
  );
  const now = useNow();
  // A state's vehicles alone (a count pressed, a fleet-now bar): part of the address.
  const [stateParam, showState] = useUrlSelection(DRILL_PARAMS.state);
  const shown = DEFAULT_STATE_ORDER.find((state) => state === stateParam) ?? null;

  let content: ReactNode;
  if (filters.ready && !hasVehicles) {
    content = <EmptyState kind="noVehicles" />;
  } else if (board) {
    content = (
      <Stack gap="md">
        <Group justify="space-between" gap="xs">
          <StateCounts board={board} large={displayMode} shown={shown} onShow={showState} />
          {!displayMode && <LiveIndicator status={live} large={false} />}
        </Group>
        <StatusTiles
          board={board}
          now={now}
          large={displayMode}
          sites={filters.scopeSites}
          shown={shown}
        />
      </Stack>
    );
  } else if (snapshot.isError) {
    content = (
      <Alert
        color="red"
        variant="light"
        title={t('state.loadFailedTitle')}
        data-testid="statusboard-error"
      >
        <Text size="sm">{failureText(snapshot.error, t)}</Text>
      </Alert>
    );
  } else {
    content = <Skeleton height={240} radius="lg" data-testid="statusboard-loading" />;
  }

  if (displayMode) {
    return (
      <section
        data-testid="page-statusboard"
        data-display-mode="true"
        style={{ padding: 'var(--mantine-spacing-md)' }}
      >
        <Group justify="space-between" mb="md">
          <Group gap="md" align="baseline">
            <Title order={1}>{t('pages.statusboard.title')}</Title>
            {narrowed && (
              <Text fz="xl" c="dimmed" data-testid="statusboard-selection">
                {t('statusboard.selection', {
                  count: filters.vehicles.length,
                  total: filters.allVehicles.length,
                })}
              </Text>
            )}
          </Group>
          <Group gap="md">
            <Text fz={28} fw={600} data-testid="statusboard-clock">
              {new Intl.DateTimeFormat(localeFor(i18n.language), { timeStyle: 'short' }).format(
                now,
              )}
            </Text>
            <LiveIndicator status={live} large />
          </Group>
        </Group>
        {content}
      </section>
    );
  }
  return (
    <AnalysisPage topic="statusboard" beta vehiclesOnly>
      {content}
    </AnalysisPage>
  );
}
