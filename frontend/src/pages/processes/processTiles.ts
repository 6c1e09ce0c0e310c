import type { ProcessFigures } from '../../api/analytics-processes';
import type { ComparedTile } from '../../components/charts';
import { type KpiTexts, kpiTextsIn } from '../../components/charts/kpiTexts';
import { approximateKpiTexts, isApproximate } from './approximate';

/** A key figure of processes/analysis; `percentile`: it may come from a histogram. */
export interface ProcessTile extends ComparedTile<ProcessFigures> {
  percentile?: boolean;
}

export const PROCESS_TILES: readonly ProcessTile[] = [
  {
    name: 'cycle-p50',
    labelKey: 'processes.cycleP50',
    pick: (f) => f.cycle.p50Seconds,
    format: 'duration',
    higherIsBetter: false,
    percentile: true,
  },
  {
    name: 'cycle-p90',
    labelKey: 'processes.cycleP90',
    pick: (f) => f.cycle.p90Seconds,
    format: 'duration',
    higherIsBetter: false,
    percentile: true,
  },
  {
    name: 'cycle-p95',
    labelKey: 'processes.cycleP95',
    pick: (f) => f.cycle.p95Seconds,
    format: 'duration',
    higherIsBetter: false,
    percentile: true,
  },
  {
    name: 'cycle-max',
    labelKey: 'processes.cycleMax',
    pick: (f) => f.cycle.maxSeconds,
    format: 'duration',
    higherIsBetter: false,
  },
  {
    name: 'success-rate',
    labelKey: 'processes.successRate',
    pick: (f) => f.outcomes.successRate,
    format: 'share',
    higherIsBetter: true,
  },
  {
    name: 'mean-waiting',
    labelKey: 'processes.meanWaiting',
    pick: (f) => f.times.meanWaitingSeconds,
    format: 'duration',
    higherIsBetter: false,
  },
  {
    name: 'mean-paused',
    labelKey: 'processes.meanPaused',
    pick: (f) => f.times.meanPausedSeconds,
    format: 'duration',
    higherIsBetter: false,
  },
];

export interface ProcessTileModel {
  name: string;
  labelKey: string;
  texts: KpiTexts;
}

/**
 * The tiles' texts against the previous period; a percentile of a period whose cycle times
 * are approximate (histograms, periods longer than 31 days) reads "≈ 12 min".
 */
export function processTileModels(
  current: ProcessFigures,
  previous: ProcessFigures,
  language: string,
  noData: string,
  tiles: readonly ProcessTile[] = PROCESS_TILES,
): ProcessTileModel[] {
  const kpi = kpiTextsIn(language, noData);
  const approximate = {
    current: isApproximate(current.cycle.exact),
    previous: isApproximate(previous.cycle.exact),
  };
  return tiles.map((tile) => {
    const values = { current: tile.pick(current), previous: tile.pick(previous) };
    const texts = kpi(values.current, values.previous, tile.format, tile.higherIsBetter);
    return {
      name: tile.name,
      labelKey: tile.labelKey,
      texts: tile.percentile ? approximateKpiTexts(texts, values, approximate) : texts,
    };
  });
}
