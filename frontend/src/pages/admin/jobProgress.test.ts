import { describe, expect, it } from 'vitest';
import type { Job } from '../../api/adminTypes';
import { isJobActive, jobProgressText, runningJob } from './jobProgress';

function job(patch: Partial<Job>): Job {
  return {
    id: 1,
    state: 'running',
    reason: 'workflowRules',
    siteId: 3,
    vehicleIds: [1, 2],
    framesTotal: 40_000,
    framesDone: 10_000,
    percent: 25,
    secondsLeft: 125,
    createdAt: '2026-11-25T10:00:00Z',
    createdBy: 'superuser@demo.fleetscope',
    ...patch,
  };
}

describe('jobProgressText', () => {
  it('a running job: percent of the messages, both counts, time left', () => {
    expect(jobProgressText(job({}), 'en')).toEqual({
      percent: 25,
      messages: '10,000 / 40,000',
      timeLeft: '2 min',
      state: 'running',
      active: true,
    });
  });

  it('German number format', () => {
    const text = jobProgressText(job({ framesDone: 12_345, secondsLeft: 45 }), 'de');
    expect(text.messages).toBe('12.345 / 40.000');
    expect(text.timeLeft).toBe('45 s');
    // 12,345 / 40,000 = 30.86 %: the bar never shows more than is done.
    expect(text.percent).toBe(30);
  });

  it('a finished job is 100 % with no time left', () => {
    const text = jobProgressText(job({ state: 'done', framesDone: 39_990, secondsLeft: 0 }), 'en');
    expect(text).toMatchObject({ percent: 100, messages: '40,000 / 40,000', timeLeft: null });
    expect(text.active).toBe(false);
  });

  it('a queued job without a total yet uses the server percent and knows no time left', () => {
    const text = jobProgressText(
      job({ state: 'queued', framesTotal: 0, framesDone: 0, percent: 0, secondsLeft: null }),
      'en',
    );
    expect(text).toMatchObject({ percent: 0, messages: '0 / 0', timeLeft: null, active: true });
  });

  it('counters beyond the total stay at 100 %', () => {
    expect(jobProgressText(job({ framesDone: 50_000 }), 'en').percent).toBe(100);
  });

  it('a failed job is not active', () => {
    expect(jobProgressText(job({ state: 'failed', error: 'boom' }), 'en').active).toBe(false);
  });
});

describe('runningJob', () => {
  it('follows the oldest active job of a newest-first list', () => {
    const jobs = [
      job({ id: 3, state: 'queued' }),
      job({ id: 2, state: 'running' }),
      job({ id: 1, state: 'done' }),
    ];
    expect(runningJob(jobs)?.id).toBe(2);
    expect(runningJob([job({ id: 1, state: 'done' })])).toBeNull();
    expect(isJobActive(null)).toBe(false);
  });
});
