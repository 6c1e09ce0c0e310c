import { describe, expect, it } from 'vitest';
import type { BatteryEntry, BatteryFigures, BatteryResult } from '../../api/analytics-battery';
import { testContext } from '../../test/chartContext';
import { timeAxis } from './batteryChartParts';
import {
  chargeChart,
  depthHistogramChart,
  healthAxisRange,
  vehicleBatteryChart,
} from './batteryCharts';
import { healthSlopeText } from './batteryTexts';

type Series = { name: string; data: unknown[]; markLine?: { data: { yAxis: number }[] } };
const seriesOf = (option: unknown) => (option as { series: Series[] }).series;

function figures(histogram: number[], energy: number | null): BatteryFigures {
  return {
    periodSeconds: 86_400,
    noDataSeconds: 0,
    sessions: {
      count: 5,
      meanDurationSeconds: 6800,
      meanAddedCharge: 60.4,
      addedCharge: 302,
      discharged: 297,
      equivalentFullCycles: 2.97,
      meanDepthOfDischarge: 59.4,
      depthHistogram: histogram,
      addedEnergyWh: energy,
      dischargedEnergyWh: energy,
    },
    meanCharge: 60,
    minCharge: 28.7,
    belowLowSeconds: 120,
    chargingShare: 0.15,
    healthLatest: 95.9,
    healthSlopePer30Days: -1.88,
  };
}

const entry: BatteryEntry = {
  vehicleId: 1,
  name: 'AGV 01',
  batteryCapacityWh: 2400,
  current: figures([0, 0, 0, 0, 0, 1, 4, 0, 0, 0], 7248),
  previous: figures([1, 1, 0, 0, 0, 0, 0, 0, 0, 0], null),
};

const data: BatteryResult = {
  period: {} as BatteryResult['period'],
  lowChargeThreshold: 20,
  series: [
    {
      vehicleId: 1,
      name: 'AGV 01',
      points: [
        [Date.parse('2026-11-21T10:00:00Z'), 35.3],
        [Date.parse('2026-11-21T10:15:00Z'), 33.4],
      ],
    },
    { vehicleId: 2, name: 'AGV 02', points: [[Date.parse('2026-11-21T10:00:00Z'), 80]] },
  ],
  healthSeries: [],
  entries: [entry],
  fleet: entry,
};

describe('battery transforms', () => {
  it('draws one charge line per vehicle with the low-charge threshold marked once', () => {
    const model = chargeChart(data, testContext());
    const series = seriesOf(model.option);
    expect(series.map((s) => s.name)).toEqual(['AGV 01', 'AGV 02']);
    expect(series[0]?.data).toEqual([
      [Date.parse('2026-11-21T10:00:00Z'), 35.3],
      [Date.parse('2026-11-21T10:15:00Z'), 33.4],
    ]);
    expect(series[0]?.markLine?.data).toEqual([{ yAxis: 20 }]);
    expect(series[1]?.markLine).toBeUndefined();
    expect(model.table.rows).toHaveLength(3);
    expect(model.table.rows[2]).toMatchObject({ vehicle: 'AGV 02', charge: 80 });
  });

  it('names the combined line as the selected vehicles, in the chart and its table', () => {
    const combined = [{ vehicleId: null, name: null, points: data.series[0]?.points ?? [] }];
    const model = chargeChart({ ...data, series: combined }, testContext());
    // The test context's t gives the key: the name is the one "combined" entries have.
    expect(seriesOf(model.option).map((s) => s.name)).toEqual(['charts.combinedEntry']);
    expect(model.table.rows[1]).toMatchObject({ vehicle: 'charts.combinedEntry', charge: 33.4 });
  });

  it("heads the tooltip with the site's time as the axis writes it, not ECharts' ISO form", () => {
    const context = { ...testContext('de'), timeZone: 'Europe/Berlin' };
    const { xAxis } = chargeChart(data, context).option as {
      xAxis: { axisPointer: { label: { formatter: (params: { value: number }) => string } } };
    };
    const at = Date.parse('2026-11-21T10:15:00Z');
    expect(xAxis.axisPointer.label.formatter({ value: at })).toBe('21.11., 11:15');
  });

  it('gives each of twelve vehicles a line of its own: eight colours, then dashed', () => {
    const twelve = Array.from({ length: 12 }, (_, index) => ({
      vehicleId: index + 1,
      name: `AGV ${index + 1}`,
      points: [[Date.parse('2026-11-21T10:00:00Z'), 50] as [number, number]],
    }));
    const series = seriesOf(
      chargeChart({ ...data, series: twelve }, testContext()).option,
    ) as Array<
      Series & { lineStyle: { color: string; type: string }; itemStyle: { color: string } }
    >;
    const looks = series.map((s) => `${s.lineStyle.color} ${s.lineStyle.type}`);
    expect(new Set(looks).size).toBe(12);
    const firstEight = series.slice(0, 8);
    expect(new Set(firstEight.map((s) => s.lineStyle.color)).size).toBe(8);
    expect(firstEight.every((s) => s.lineStyle.type === 'solid')).toBe(true);
    expect(series[8]?.lineStyle).toMatchObject({
      color: series[0]?.lineStyle.color,
      type: 'dashed',
    });
    // The legend and the tooltip's dot take the line's colour.
    expect(series.every((s) => s.itemStyle.color === s.lineStyle.color)).toBe(true);
  });

  it('bins depth of discharge in 10-point steps, German labels with the user number format', () => {
    const model = depthHistogramChart(entry, testContext('de'));
    expect(model.table.rows[6]).toEqual({ bin: '60–70\u00a0%', current: 4, previous: 0 });
    expect(model.table.rows[0]).toEqual({ bin: '0–10\u00a0%', current: 0, previous: 1 });
    expect(seriesOf(model.option)[0]?.data).toEqual([0, 0, 0, 0, 0, 1, 4, 0, 0, 0]);
  });

  it('tabulates cycles, health, slope, low-charge time, charging share and energy per vehicle', () => {
    const model = vehicleBatteryChart(
      [entry, { ...entry, vehicleId: 2, name: 'AGV 02', current: figures([], null) }],
      testContext(),
    );
    expect(model.table.rows[0]).toMatchObject({
      meanCharge: 60,
      minCharge: 28.7,
      sessions: 5,
      efc: 2.97,
      health: 95.9,
      slope: -1.88,
      belowLow: 120,
      chargingShare: 0.15,
      addedKWh: 7.248,
    });
    expect(model.table.columns.find((c) => c.key === 'addedKWh')?.label).toBe(
      'battery.addedEnergy (kWh)',
    );
    expect(model.table.rows[1]).toMatchObject({ addedKWh: null, dischargedKWh: null });
  });

  it('writes the health slope signed in the user language', () => {
    expect(healthSlopeText(-1.884, 'de')).toBe('−1,88');
    expect(healthSlopeText(0.5, 'en')).toBe('+0.50');
    expect(healthSlopeText(null, 'en')).toBeNull();
  });

  it('steps the health axis so that its last tick is 100 %, from a multiple of 10 below', () => {
    // 91.9 % lowest: from 80 (5 points below, down to a multiple of 10) in steps of 5.
    expect(healthAxisRange([95.9, 91.9, null])).toEqual({ min: 80, max: 100, interval: 5 });
    expect(healthAxisRange([97])).toEqual({ min: 90, max: 100, interval: 2 });
    expect(healthAxisRange([33])).toEqual({ min: 20, max: 100, interval: 20 });
    expect(healthAxisRange([71])).toEqual({ min: 60, max: 100, interval: 10 });
    expect(healthAxisRange([1])).toEqual({ min: 0, max: 100, interval: 20 });
    expect(healthAxisRange([null])).toEqual({ min: 90, max: 100, interval: 2 });
    for (const lowest of [0, 4, 12, 27, 38, 44, 58, 63, 77, 86, 93, 99.5]) {
      const { min, interval } = healthAxisRange([lowest]);
      expect((100 - min) % interval).toBe(0);
      expect(min).toBeLessThanOrEqual(Math.max(0, lowest - 5));
    }
  });
});

describe('timeAxis', () => {
  const context = { ...testContext('de'), timeZone: 'Europe/Berlin' };
  const { axisLabel, axisPointer } = timeAxis(context) as unknown as {
    axisLabel: { formatter: (value: number) => string };
    axisPointer: { label: { formatter: (param: { value: number }) => string } };
  };

  it("labels a tick at the site's midnight with the day alone, any other with day and time", () => {
    // 23:00 UTC is midnight in Berlin (winter time).
    expect(axisLabel.formatter(Date.parse('2026-11-23T23:00:00Z'))).toBe('24.11.');
    expect(axisLabel.formatter(Date.parse('2026-11-24T00:00:00Z'))).toBe('24.11., 01:00');
  });

  it('gives the pointer day and time, midnight too', () => {
    const midnight = Date.parse('2026-11-23T23:00:00Z');
    expect(axisPointer.label.formatter({ value: midnight })).toBe('24.11., 00:00');
  });
});
