import { Alert, Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { IconProgress } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { getJob, listJobs } from '../../api/admin';
import type { Job } from '../../api/adminTypes';
import { ProgressBar } from '../../components/page/ProgressBar';
import { formatPercent } from '../../lib/format';
import { isJobActive, jobProgressText, runningJob } from './jobProgress';

/** How often a running job's progress is read from the server. */
const JOB_POLL_MS = 1_000;

/** A query's refetch interval: polled while one of `jobs` still works, else not. */
export function pollWhileActive(jobs: readonly (Job | undefined)[]): number | false {
  return jobs.some(isJobActive) ? JOB_POLL_MS : false;
}

/** The recent jobs; polled while one of them still works. */
export function useRecentJobs() {
  return useQuery({
    queryKey: ['admin', 'jobs', 'recent'],
    queryFn: () => listJobs(1, 20),
    refetchInterval: (query) => pollWhileActive(query.state.data?.items ?? []),
    staleTime: 0,
  });
}

/** A small badge in the admin shell while a re-derivation runs; leads to the jobs page. */
export function JobIndicator() {
  const { t, i18n } = useTranslation();
  const { data } = useRecentJobs();
  const job = runningJob(data?.items ?? []);
  if (!job) {
    return null;
  }
  const progress = jobProgressText(job, i18n.language);
  return (
    <Anchor component={Link} to="/admin/jobs" underline="never" data-testid="job-indicator">
      <Badge
        size="lg"
        variant="light"
        color="blue"
        leftSection={<IconProgress size={14} />}
        style={{ cursor: 'pointer' }}
      >
        {t('admin.jobs.indicator', { percent: progress.percent })}
      </Badge>
    </Anchor>
  );
}

/** One job, read from the server and polled while it works (a reload finds it again). */
export function useJob(id: number | null) {
  return useQuery({
    queryKey: ['admin', 'job', id],
    queryFn: () => getJob(id ?? 0),
    enabled: id !== null,
    staleTime: 0,
    refetchInterval: (query) => pollWhileActive([query.state.data]),
  });
}

/** Progress of a re-derivation: bar with percent, messages done of total, time left. */
export function JobProgress({ job }: { job: Job }) {
  const { t, i18n } = useTranslation();
  const progress = jobProgressText(job, i18n.language);
  const color = job.state === 'failed' ? 'red' : job.state === 'done' ? 'green' : 'blue';
  return (
    <Stack gap={4} data-testid={`job-${job.id}`} data-state={job.state}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          {t(`admin.jobs.reason.${job.reason}`)} · {t(`admin.jobs.state.${job.state}`)}
        </Text>
        <Text size="sm" data-testid="job-percent">
          {formatPercent(progress.percent, i18n.language, { digits: 0 })}
        </Text>
      </Group>
      <ProgressBar
        value={progress.percent}
        color={color}
        animated={progress.active}
        label={t('admin.jobs.progressLabel', { percent: progress.percent })}
      />
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed" data-testid="job-messages">
          {t('admin.jobs.messages', { messages: progress.messages })}
        </Text>
        {progress.timeLeft && (
          <Text size="xs" c="dimmed" data-testid="job-time-left">
            {t('admin.jobs.timeLeft', { time: progress.timeLeft })}
          </Text>
        )}
      </Group>
      {job.error && (
        <Text size="xs" c="red.8" data-testid="job-error">
          {job.error}
        </Text>
      )}
    </Stack>
  );
}

/** The progress of a job a save has started, followed until it ends. */
export function FollowedJob({ id }: { id: number }) {
  const { data } = useJob(id);
  if (!data) {
    return null;
  }
  return (
    <Alert variant="light" color="blue" data-testid="followed-job">
      <JobProgress job={data} />
    </Alert>
  );
}
