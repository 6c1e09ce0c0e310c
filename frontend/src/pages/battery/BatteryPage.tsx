import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type BatteryFigures, loadBattery } from '../../api/analytics-battery';
import {
  ComparedKpiTiles,
  type ComparedTile,
  KpiTile,
  ModelChartCard,
  reportedIn,
  useAnalyticsQuery,
  useChartContext,
} from '../../components/charts';
import { comparableFigures } from '../../components/charts/kpiTexts';
import { ShownOnOpen } from '../../components/drill/ShownOnOpen';
import { useUrlSelection } from '../../components/drill/useUrlSelection';
import { AnalysisPage } from '../../components/page/AnalysisPage';
import {
  BATTERY_VEHICLES_CHART,
  batteryTileTarget,
  batteryVehicleTarget,
  type ChartElement,
  chargeLineTarget,
  chargeRowTarget,
  DRILL_PARAMS,
  depthBarTarget,
  sessionListOf,
} from '../../lib/drillDown';
import { chargeChart, depthHistogramChart, vehicleBatteryChart } from './batteryCharts';
import { healthSlopeText } from './batteryTexts';
import { ChargeSessionsDrilldown } from './ChargeSessionsDrilldown';
import { healthChartStatus, healthTrendChart } from './healthCharts';

// Without a known capacity the energy tile says so instead of comparing.
const ENERGY = 'energy';
const BATTERY_TILES: readonly ComparedTile<BatteryFigures>[] = [
  {
    name: 'mean-charge',
    labelKey: 'battery.meanCharge',
    pick: (f) => f.meanCharge,
    format: 'percentPoints',
    higherIsBetter: true,
  },
  {
    name: 'min-charge',
    labelKey: 'battery.minCharge',
    pick: (f) => f.minCharge,
    format: 'percentPoints',
    higherIsBetter: true,
  },
  {
    name: 'sessions',
    labelKey: 'battery.sessions',
    pick: (f) => f.sessions.count,
    format: 'integer',
    higherIsBetter: false,
  },
  {
    name: 'mean-session',
    labelKey: 'battery.meanSessionDuration',
    pick: (f) => f.sessions.meanDurationSeconds,
    format: 'duration',
    higherIsBetter: false,
  },
  {
    name: 'mean-added',
    labelKey: 'battery.meanAddedCharge',
    pick: (f) => f.sessions.meanAddedCharge,
    format: 'percentPoints',
    higherIsBetter: true,
  },
  {
    name: 'efc',
    labelKey: 'battery.equivalentFullCycles',
    pick: (f) => f.sessions.equivalentFullCycles,
    format: 'decimal',
    higherIsBetter: false,
  },
  {
    name: 'mean-depth',
    labelKey: 'battery.meanDepth',
    pick: (f) => f.sessions.meanDepthOfDischarge,
    format: 'percentPoints',
    higherIsBetter: false,
  },
  {
    name: 'health',
    labelKey: 'battery.health',
    pick: (f) => f.healthLatest,
    format: 'percentPoints',
    higherIsBetter: true,
  },
  {
    name: 'below-low',
    labelKey: 'battery.belowLow',
    pick: (f) => f.belowLowSeconds,
    format: 'duration',
    higherIsBetter: false,
  },
  {
    name: 'charging-share',
    labelKey: 'battery.chargingShare',
    pick: (f) => f.chargingShare,
    format: 'share',
    higherIsBetter: false,
  },
  {
    name: ENERGY,
    labelKey: 'battery.addedEnergy',
    pick: (f) => f.sessions.addedEnergyWh,
    format: 'kWh',
    higherIsBetter: false,
  },
];

/**
 * battery: mean and minimum charge, charge over time, sessions, depth of discharge, cycles,
 * health, low charge, energy.
 */
export default function BatteryPage() {
  const { t } = useTranslation();
  const ctx = useChartContext();
  const { query, scope, statusFor } = useAnalyticsQuery('battery', loadBattery);
  const data = query.data;
  const charge = useMemo(() => data && chargeChart(data, ctx), [data, ctx]);
  const health = useMemo(() => data && healthTrendChart(data, ctx), [data, ctx]);
  const depth = useMemo(() => data && depthHistogramChart(data.fleet, ctx), [data, ctx]);
  const vehicles = useMemo(() => data && vehicleBatteryChart(data.entries, ctx), [data, ctx]);
  const [sessionsParam, setSessionsParam] = useUrlSelection(DRILL_PARAMS.sessions);
  const [tableParam, setTableParam] = useUrlSelection(DRILL_PARAMS.table);
  const sessionList = sessionListOf(sessionsParam);
  // Drill-down: a vehicle's charge or health line or battery bar to the battery page of that
  // vehicle; a depth bar to its sessions (the list below the charts).
  const drills = useMemo(() => {
    if (!data) {
      return undefined;
    }
    const reportingHealth = data.healthSeries.filter((series) => series.points.length > 0);
    return {
      charge: {
        element: (e: ChartElement) => chargeLineTarget(data.series, e),
        row: (index: number) => chargeRowTarget(data.series, index),
      },
      health: {
        element: (e: ChartElement) => chargeLineTarget(reportingHealth, e),
        row: (index: number) => chargeRowTarget(reportingHealth, index),
      },
      depth: { element: depthBarTarget },
      vehicles: { element: (e: ChartElement) => batteryVehicleTarget(data.entries, e) },
    };
  }, [data]);
  // The view's, not the data's: while a new view loads, the last result stays on screen.
  const tileDrill = (name: string) => batteryTileTarget(name, scope.combined);
  const exportScope = { page: 'battery', from: scope.from, to: scope.to };
  const current = data?.fleet.current;
  const previous = comparableFigures(data?.fleet.previous);
  const slopeValue = (text: string | null) =>
    text === null ? t('charts.noValue') : t('battery.slopeValue', { value: text });
  const energyKnown =
    current?.sessions.addedEnergyWh !== null && current?.sessions.addedEnergyWh !== undefined;
  return (
    <AnalysisPage topic="battery">
      <Stack gap="md">
        {current && (
          <ComparedKpiTiles
            testId="battery-kpis"
            tiles={energyKnown ? BATTERY_TILES : BATTERY_TILES.filter((t) => t.name !== ENERGY)}
            current={current}
            previous={previous}
            largeColumns={6}
            drillOf={tileDrill}
          >
            <KpiTile
              name="health-slope"
              label={t('battery.healthSlope')}
              value={slopeValue(healthSlopeText(current.healthSlopePer30Days, ctx.language))}
              trend={null}
              drill={tileDrill('health-slope')}
            />
            {!energyKnown && (
              <KpiTile
                name="energy"
                label={t('battery.addedEnergy')}
                value="–"
                trend={null}
                deltaText={t('battery.capacityUnknown')}
                drill={tileDrill('energy')}
              />
            )}
          </ComparedKpiTiles>
        )}
        {data && energyKnown && data.entries.some((entry) => entry.batteryCapacityWh === null) && (
          <Text size="sm" c="dimmed" data-testid="battery-energy-partial">
            {t('battery.energyPartial')}
          </Text>
        )}
        <ModelChartCard
          name="charge"
          title={t('battery.chargeOverTime')}
          status={statusFor((d) => d.series.every((series) => series.points.length === 0))}
          model={charge}
          drill={drills?.charge}
          exportScope={exportScope}
          height={340}
        />
        <ModelChartCard
          name="health-trend"
          title={t('battery.healthOverTime')}
          status={healthChartStatus(
            statusFor((d) => d.healthSeries.every((series) => series.points.length === 0)),
            data,
          )}
          model={health}
          drill={drills?.health}
          exportScope={exportScope}
          height={300}
        />
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <ModelChartCard
            name="depth-of-discharge"
            title={t('battery.depthHistogram')}
            status={statusFor(
              (d) => d.fleet.current.sessions.count === 0 && d.fleet.previous.sessions.count === 0,
              (d) => reportedIn(d.fleet.current),
            )}
            model={depth}
            drill={drills?.depth}
            exportScope={exportScope}
          />
          <ModelChartCard
            name={BATTERY_VEHICLES_CHART}
            openTable={tableParam === BATTERY_VEHICLES_CHART}
            onViewChange={(view) => view === 'chart' && setTableParam(null)}
            title={t('battery.perVehicle')}
            status={statusFor((d) =>
              d.entries.every(
                (entry) =>
                  entry.current.sessions.count === 0 && entry.current.healthLatest === null,
              ),
            )}
            model={vehicles}
            drill={drills?.vehicles}
            exportScope={exportScope}
          />
        </SimpleGrid>
        {sessionList && (
          <ShownOnOpen key={sessionsParam}>
            <ChargeSessionsDrilldown
              scope={scope}
              depth={sessionList.depth}
              onClose={() => setSessionsParam(null)}
            />
          </ShownOnOpen>
        )}
      </Stack>
    </AnalysisPage>
  );
}
