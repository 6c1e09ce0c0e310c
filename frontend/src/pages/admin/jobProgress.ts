import type { Job, JobState } from '../../api/adminTypes';
import { formatDuration, formatNumber } from '../../lib/format';

/** A job that is still working (the page polls it; the shell shows its indicator). */
export function isJobActive(job: Pick<Job, 'state'> | null | undefined): boolean {
  return job?.state === 'queued' || job?.state === 'running';
}

export interface JobProgressText {
  /** 0..100, whole percent, for the bar. */
  percent: number;
  /** "12,345 / 40,000" messages re-derived of the total. */
  messages: string;
  /** "2 min", "45 s"; null while unknown or when the job is over. */
  timeLeft: string | null;
  state: JobState;
  active: boolean;
}

/**
 * What the progress of a re-derivation shows. The percent comes from the messages done of
 * the total (the server's own `percent` when there is no total yet), never beyond 0..100; a
 * finished job is 100 %, whatever its counters say.
 */
export function jobProgressText(job: Job, language: string): JobProgressText {
  const active = isJobActive(job);
  const total = Math.max(0, job.framesTotal);
  const done = Math.min(Math.max(0, job.framesDone), total > 0 ? total : Number.POSITIVE_INFINITY);
  let percent: number;
  if (job.state === 'done') {
    percent = 100;
  } else if (total > 0) {
    percent = Math.floor((done / total) * 100);
  } else {
    percent = Math.floor(Number.isFinite(job.percent) ? job.percent : 0);
  }
  percent = Math.min(100, Math.max(0, percent));
  const seconds = job.secondsLeft;
  const timeLeft =
    active && typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
      ? formatDuration(seconds, language)
      : null;
  return {
    percent,
    messages: `${formatNumber(job.state === 'done' ? total : done, language)} / ${formatNumber(total, language)}`,
    timeLeft,
    state: job.state,
    active,
  };
}

/** The job the shell's indicator follows: the oldest still working one, else none. */
export function runningJob(jobs: readonly Job[]): Job | null {
  const active = jobs.filter(isJobActive);
  return active.length === 0 ? null : (active[active.length - 1] ?? null);
}
