import { SimpleGrid, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { loadProductivity } from '../../api/analytics';
import {
  KpiTile,
  ModelChartCard,
  PartlyRecordedNote,
  reportedIn,
  useAnalyticsQuery,
  useChartContext,
} from '../../components/charts';
import { AnalysisPage } from '../../components/page/AnalysisPage';
import {
  type ChartElement,
  heatmapCellTarget,
  heatmapTarget,
  pageTileTarget,
  vehicleOrdersTarget,
  vehicleStateTarget,
} from '../../lib/drillDown';
import {
  distanceLoadsChart,
  hasNoData,
  heatmapIsEmpty,
  ordersHeatmapChart,
  productivityTiles,
  timeInStateChart,
  timeInStateHeight,
} from './analysisCharts';

const PAGE = 'productivityAnalysis';

/** productivity/analysis: KPI tiles, time in state, orders heatmap, distance and loads. */
export default function ProductivityAnalysisPage() {
  const { t } = useTranslation();
  const ctx = useChartContext();
  const { query, filters, statusFor } = useAnalyticsQuery('productivity', loadProductivity);
  const data = query.data;
  const models = useMemo(
    () =>
      data && {
        tiles: productivityTiles(data, ctx, { periodWithoutData: hasNoData(data) }),
        timeInState: timeInStateChart(data, ctx),
        heatmap: ordersHeatmapChart(data.heatmap, ctx),
        distanceLoads: distanceLoadsChart(data, ctx),
      },
    [data, ctx],
  );
  // Drill-down: a vehicle's time in a state to what filled it (`vehicleStateTarget`), its
  // distance and loads to its orders, a heatmap cell (or weekday) to the orders ended there.
  const { from, to } = filters;
  const drills = useMemo(
    () =>
      data && {
        timeInState: { element: (e: ChartElement) => vehicleStateTarget(data.entries, e) },
        distanceLoads: { element: (e: ChartElement) => vehicleOrdersTarget(data.entries, e) },
        heatmap: {
          element: heatmapCellTarget,
          row: (weekday: number) => heatmapTarget(weekday),
        },
      },
    [data],
  );
  const exportScope = { page: PAGE, from, to };
  const emptyStatus = statusFor(hasNoData);
  const tilesReady = emptyStatus.kind === 'ready' && models;
  // A period without data shows its tiles too, reading "no data" (`productivityTiles`).
  const tiles = tilesReady || emptyStatus.kind === 'empty' ? (models?.tiles ?? []) : [];

  return (
    <AnalysisPage topic={PAGE}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" data-testid="kpi-tiles">
          {tiles.map((tile) => (
            <KpiTile
              key={tile.key}
              name={tile.key}
              label={tile.label}
              value={tile.value}
              trend={tile.trend}
              deltaText={tile.deltaText}
              previousText={tile.previousText}
              drill={pageTileTarget(tile.key)}
            />
          ))}
        </SimpleGrid>
        {tilesReady && data && (
          <PartlyRecordedNote current={data.fleet.kpis} previous={data.fleet.previous} />
        )}
        <ModelChartCard
          name="timeInState"
          title={t('productivity.charts.timeInState')}
          status={emptyStatus}
          model={models?.timeInState}
          drill={drills?.timeInState}
          exportScope={exportScope}
          height={timeInStateHeight(data?.entries.length ?? 1)}
        />
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <ModelChartCard
            name="ordersHeatmap"
            title={t('productivity.charts.ordersHeatmap')}
            status={statusFor(
              (loaded) => heatmapIsEmpty(loaded.heatmap),
              (loaded) => reportedIn(loaded.fleet.kpis),
            )}
            model={models?.heatmap}
            drill={drills?.heatmap}
            exportScope={exportScope}
          />
          <ModelChartCard
            name="distanceLoads"
            title={t('productivity.charts.distanceLoads')}
            status={emptyStatus}
            model={models?.distanceLoads}
            drill={drills?.distanceLoads}
            exportScope={exportScope}
          />
        </SimpleGrid>
      </Stack>
    </AnalysisPage>
  );
}
