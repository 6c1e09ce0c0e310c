import { Group, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ErrorFilter, loadFailureMap, NO_ERROR_FILTER } from '../../api/analytics-failures';
import { ModelChartCard, useAnalyticsQuery, useChartContext } from '../../components/charts';
import { AnalysisPage } from '../../components/page/AnalysisPage';
import {
  type ChartElement,
  densityCellTarget,
  heatmapItem,
  mapPointTarget,
} from '../../lib/drillDown';
import { formatNumber } from '../../lib/format';
import { ErrorFilterControls } from './ErrorFilterControls';
import { densestCells, densityChart, errorMapChart } from './mapCharts';
import { useErrorTypes } from './useErrorTypes';

/** failures/visualization: the site drawn from the driven track, error points and their density. */
export default function FailuresVisualizationPage() {
  const { t, i18n } = useTranslation();
  const ctx = useChartContext();
  const [filter, setFilter] = useState<ErrorFilter>(NO_ERROR_FILTER);
  const [mapId, setMapId] = useState<string | null>(null);
  const errorTypes = useErrorTypes();
  const { query, scope, statusFor } = useAnalyticsQuery(
    'failureMap',
    (s) => loadFailureMap(s, filter),
    { extraKey: [filter.errorType, filter.levels.join(',')] },
  );
  const maps = query.data?.maps ?? [];
  const layer = maps.find((candidate) => candidate.mapId === mapId) ?? maps[0];
  const points = useMemo(() => layer && errorMapChart(layer, ctx), [layer, ctx]);
  const density = useMemo(() => layer && densityChart(layer, ctx), [layer, ctx]);
  // Drill-down: a point to the episodes of its type on its vehicle; a density cell (or its
  // table row) to the episodes it counts, under the page's error filter.
  const drills = useMemo(
    () =>
      layer && {
        points: { element: (e: ChartElement) => mapPointTarget(layer.points, e, filter.levels) },
        density: {
          element: (e: ChartElement) => densityCellTarget(layer, filter, heatmapItem(e)),
          row: (index: number) => densityCellTarget(layer, filter, densestCells(layer)[index]),
        },
      },
    [layer, filter],
  );
  const exportScope = { page: 'failuresVisualization', from: scope.from, to: scope.to };
  const noPoints = () => !layer || layer.pointsTotal === 0;
  return (
    <AnalysisPage topic="failuresVisualization">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <ErrorFilterControls
            filter={filter}
            errorTypes={errorTypes}
            onChange={(change) => setFilter((current) => ({ ...current, ...change }))}
          />
          {maps.length > 1 && layer && (
            <SegmentedControl
              size="xs"
              data-testid="map-select"
              aria-label={t('failures.mapSelect')}
              value={layer.mapId}
              onChange={setMapId}
              data={maps.map((candidate) => candidate.mapId)}
            />
          )}
        </Group>
        {layer && layer.pointsTotal > layer.points.length && (
          <Text size="sm" c="dimmed" data-testid="map-points-limited">
            {t('failures.pointsLimited', {
              shown: formatNumber(layer.points.length, i18n.language),
              total: formatNumber(layer.pointsTotal, i18n.language),
            })}
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, xl: 2 }} spacing="md">
          <ModelChartCard
            name="error-map"
            title={
              layer ? t('failures.mapTitle', { map: layer.mapId }) : t('failures.mapTitleNone')
            }
            status={statusFor(noPoints)}
            model={points}
            drill={drills?.points}
            exportScope={exportScope}
            height={420}
          />
          <ModelChartCard
            name="error-density"
            title={t('failures.densityTitle')}
            status={statusFor(noPoints)}
            model={density}
            drill={drills?.density}
            exportScope={exportScope}
            height={420}
          />
        </SimpleGrid>
      </Stack>
    </AnalysisPage>
  );
}
