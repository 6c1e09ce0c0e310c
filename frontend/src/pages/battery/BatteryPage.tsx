import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { loadBattery } from '../../api/analytics-battery';
import {
  ChartCard,
  EChart,
  KpiTile,
  useAnalyticsQuery,
  useChartContext,
} from '../../components/charts';
import { AnalysisPage } from '../../components/page/AnalysisPage';
import { kpiTextsIn } from '../processes/kpiValues';
import { chargeChart, depthHistogramChart, vehicleBatteryChart } from './batteryCharts';
import { healthSlopeText } from './batteryTexts';
import { healthChartStatus, healthTrendChart } from './healthCharts';

/** battery: charge over time, sessions, depth of discharge, cycles, health, low charge, energy. */
export default function BatteryPage() {
  const { t } = useTranslation();
  const ctx = useChartContext();
  const { query, scope, statusFor } = useAnalyticsQuery('battery', loadBattery);
  const data = query.data;
  const charge = useMemo(() => data && chargeChart(data, ctx), [data, ctx]);
  const health = useMemo(() => data && healthTrendChart(data, ctx), [data, ctx]);
  const depth = useMemo(() => data && depthHistogramChart(data.fleet, ctx), [data, ctx]);
  const vehicles = useMemo(() => data && vehicleBatteryChart(data.entries, ctx), [data, ctx]);
  const exportScope = { page: 'battery', from: scope.from, to: scope.to };
  const current = data?.fleet.current;
  const previous = data?.fleet.previous;
  const kpi = kpiTextsIn(ctx.language);
  const slopeValue = (text: string | null) =>
    text === null ? '–' : t('battery.slopeValue', { value: text });
  const energyKnown =
    current?.sessions.addedEnergyWh !== null && current?.sessions.addedEnergyWh !== undefined;
  return (
    <AnalysisPage topic="battery">
      <Stack gap="md">
        {current && previous && (
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm" data-testid="battery-kpis">
            <KpiTile
              name="sessions"
              label={t('battery.sessions')}
              {...kpi(current.sessions.count, previous.sessions.count, 'integer', false)}
            />
            <KpiTile
              name="mean-session"
              label={t('battery.meanSessionDuration')}
              {...kpi(
                current.sessions.meanDurationSeconds,
                previous.sessions.meanDurationSeconds,
                'duration',
                false,
              )}
            />
            <KpiTile
              name="mean-added"
              label={t('battery.meanAddedCharge')}
              {...kpi(
                current.sessions.meanAddedCharge,
                previous.sessions.meanAddedCharge,
                'percentPoints',
                true,
              )}
            />
            <KpiTile
              name="efc"
              label={t('battery.equivalentFullCycles')}
              {...kpi(
                current.sessions.equivalentFullCycles,
                previous.sessions.equivalentFullCycles,
                'decimal',
                false,
              )}
            />
            <KpiTile
              name="mean-depth"
              label={t('battery.meanDepth')}
              {...kpi(
                current.sessions.meanDepthOfDischarge,
                previous.sessions.meanDepthOfDischarge,
                'percentPoints',
                false,
              )}
            />
            <KpiTile
              name="health"
              label={t('battery.health')}
              {...kpi(current.healthLatest, previous.healthLatest, 'percentPoints', true)}
            />
            <KpiTile
              name="health-slope"
              label={t('battery.healthSlope')}
              value={slopeValue(healthSlopeText(current.healthSlopePer30Days, ctx.language))}
              trend={null}
            />
            <KpiTile
              name="below-low"
              label={t('battery.belowLow')}
              {...kpi(current.belowLowSeconds, previous.belowLowSeconds, 'duration', false)}
            />
            <KpiTile
              name="charging-share"
              label={t('battery.chargingShare')}
              {...kpi(current.chargingShare, previous.chargingShare, 'share', false)}
            />
            {energyKnown ? (
              <KpiTile
                name="energy"
                label={t('battery.addedEnergy')}
                {...kpi(
                  current.sessions.addedEnergyWh,
                  previous.sessions.addedEnergyWh,
                  'integer',
                  false,
                )}
              />
            ) : (
              <KpiTile
                name="energy"
                label={t('battery.addedEnergy')}
                value="–"
                trend={null}
                deltaText={t('battery.capacityUnknown')}
              />
            )}
          </SimpleGrid>
        )}
        {data && energyKnown && data.entries.some((entry) => entry.batteryCapacityWh === null) && (
          <Text size="sm" c="dimmed" data-testid="battery-energy-partial">
            {t('battery.energyPartial')}
          </Text>
        )}
        <ChartCard
          name="charge"
          title={t('battery.chargeOverTime')}
          status={statusFor((d) => d.series.every((series) => series.points.length === 0))}
          table={charge?.table}
          exportScope={exportScope}
          height={340}
        >
          {charge && (
            <EChart option={charge.option} height={340} ariaLabel={t('battery.chargeOverTime')} />
          )}
        </ChartCard>
        <ChartCard
          name="health-trend"
          title={t('battery.healthOverTime')}
          status={healthChartStatus(
            statusFor((d) => d.healthSeries.every((series) => series.points.length === 0)),
            data,
          )}
          table={health?.table}
          exportScope={exportScope}
          height={300}
        >
          {health && (
            <EChart option={health.option} height={300} ariaLabel={t('battery.healthOverTime')} />
          )}
        </ChartCard>
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <ChartCard
            name="depth-of-discharge"
            title={t('battery.depthHistogram')}
            status={statusFor(
              (d) => d.fleet.current.sessions.count === 0 && d.fleet.previous.sessions.count === 0,
            )}
            table={depth?.table}
            exportScope={exportScope}
          >
            {depth && <EChart option={depth.option} ariaLabel={t('battery.depthHistogram')} />}
          </ChartCard>
          <ChartCard
            name="battery-vehicles"
            title={t('battery.perVehicle')}
            status={statusFor((d) =>
              d.entries.every(
                (entry) =>
                  entry.current.sessions.count === 0 && entry.current.healthLatest === null,
              ),
            )}
            table={vehicles?.table}
            exportScope={exportScope}
          >
            {vehicles && <EChart option={vehicles.option} ariaLabel={t('battery.perVehicle')} />}
          </ChartCard>
        </SimpleGrid>
      </Stack>
    </AnalysisPage>
  );
}
