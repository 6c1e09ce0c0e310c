import type { ProcessFigures } from '../../api/analytics-processes';

/** Figures of a period without orders (optionally with a histogram). */
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
