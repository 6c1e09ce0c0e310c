import type { ProcessFigures } from '../../api/analytics-processes';
import { type ChartContext, chartTheme } from '../../components/charts';

/** A chart context for the transform tests: `t` returns the key (and its options), so tests read what was asked for. */
export function testContext(language = 'en'): ChartContext {
  return {
    language,
    theme: chartTheme('light'),
    t: (key, options) =>
      options && Object.keys(options).length > 0 ? `${key} ${JSON.stringify(options)}` : key,
  };
}

export function emptyFigures(histogram: number[] = []): ProcessFigures {
  return {
    cycle: {
      count: 0,
      p50Seconds: null,
      p90Seconds: null,
      p95Seconds: null,
      maxSeconds: null,
      meanSeconds: null,
    },
    outcomes: { finished: 0, failed: 0, cancelled: 0, total: 0, successRate: null },
    times: {
      pausedSeconds: 0,
      waitingSeconds: 0,
      meanPausedSeconds: null,
      meanWaitingSeconds: null,
    },
    histogram,
  };
}
