import type { ActionRow, ProcessFigures, WorkflowRow } from '../../api/analytics-processes';

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

/** A workflow's row as the API gives it, with a previous period missing its p90. */
export const sampleWorkflowRow: WorkflowRow = {
  workflow: 'TRANSPORT_A',
  orders: 10,
  finished: 9,
  successRate: 0.9,
  cycleP50Seconds: 140,
  cycleP90Seconds: 170,
  previousOrders: 4,
  previousSuccessRate: 1,
  previousCycleP50Seconds: 150,
  previousCycleP90Seconds: null,
  ordersTrend: 6,
};

/** An action type's row as the API gives it, without a previous failure rate. */
export const sampleActionRow: ActionRow = {
  actionType: 'pick',
  count: 100,
  failed: 4,
  failureRate: 0.04,
  durationP50Seconds: 20,
  durationP90Seconds: 30,
  meanWaitSeconds: 40,
  waitP50Seconds: 42,
  previousCount: 50,
  previousFailureRate: null,
};
