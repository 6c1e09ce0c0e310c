import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  type ModalProps,
  Progress,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy, IconProgress } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { getJob, listJobs } from '../../api/admin';
import type { Job } from '../../api/adminTypes';
import { AccountMenu } from '../../components/layout/AccountMenu';
import { formatDateTime } from '../../lib/format';
import { isJobActive, jobProgressText, runningJob } from './jobProgress';

/** A dialog of the Administration app: its close button named for screen readers. */
export function AdminModal({ closeButtonProps, ...props }: ModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      {...props}
      closeButtonProps={{ 'aria-label': t('admin.common.close'), ...closeButtonProps }}
    />
  );
}

/** How often a running job's progress is read from the server. */
export const JOB_POLL_MS = 1_000;

/** The message of a failed call (the server's, naming the field or the conflict). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A toast for a result: green for success, red with the server's message for a failure. */
export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message, withBorder: true });
}

export function notifyFailure(error: unknown): void {
  notifications.show({
    color: 'red',
    message: errorText(error),
    withBorder: true,
    autoClose: 8_000,
  });
}

/** An instant in the browser's zone and the user's language ("—" when there is none). */
export function useDateTime(): (at: string | null | undefined) => string {
  const { i18n } = useTranslation();
  return (at) => (at ? formatDateTime(at, i18n.language) : '—');
}

/** Title, what the page is for, its actions, the job indicator and the account menu. */
export function AdminHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: string;
  actions?: ReactNode;
}) {
  return (
    <header className="fs-header" data-testid="page-header">
      <Stack gap={4} className="fs-header-main">
        <Title order={1} size="h2" data-testid="page-title">
          {title}
        </Title>
        {description && (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        )}
      </Stack>
      <Group gap="xs" wrap="nowrap" align="flex-start" className="fs-header-actions">
        {actions}
        <JobIndicator />
        <AccountMenu />
      </Group>
    </header>
  );
}

/** The recent jobs; polled while one of them still works. */
export function useRecentJobs() {
  return useQuery({
    queryKey: ['admin', 'jobs', 'recent'],
    queryFn: () => listJobs(1, 20),
    refetchInterval: (query) =>
      (query.state.data?.items ?? []).some(isJobActive) ? JOB_POLL_MS : false,
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
    refetchInterval: (query) => (isJobActive(query.state.data) ? JOB_POLL_MS : false),
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
          {progress.percent} %
        </Text>
      </Group>
      <Progress
        value={progress.percent}
        color={color}
        animated={progress.active}
        aria-label={t('admin.jobs.progressLabel', { percent: progress.percent })}
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

/** A secret the server shows once (temporary password, API token), with a copy button. */
export function ShownOnce({
  label,
  value,
  testId,
  onDone,
}: {
  label: string;
  value: string;
  testId: string;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" variant="light" title={label} data-testid={testId}>
      <Stack gap="xs">
        <Text size="sm">{t('admin.common.shownOnce')}</Text>
        <Group gap="xs" wrap="nowrap">
          <Code
            block
            data-testid={`${testId}-value`}
            style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
          >
            {value}
          </Code>
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? t('admin.common.copied') : t('admin.common.copy')}>
                <ActionIcon
                  variant="light"
                  onClick={copy}
                  aria-label={t('admin.common.copy')}
                  data-testid={`${testId}-copy`}
                >
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
        <Group justify="flex-end">
          <Button size="xs" variant="light" onClick={onDone} data-testid={`${testId}-done`}>
            {t('admin.common.done')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/** Asks before a change that cannot simply be undone (delete, revoke, move, deactivate). */
export function ConfirmDialog({
  opened,
  title,
  message,
  confirmLabel,
  pending = false,
  onConfirm,
  onClose,
  children,
}: {
  opened: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  pending?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <AdminModal opened={opened} onClose={onClose} title={title} centered>
      <Stack gap="md" data-testid="confirm-dialog">
        <Text size="sm">{message}</Text>
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('admin.common.cancel')}
          </Button>
          <Button color="red" onClick={onConfirm} loading={pending} data-testid="confirm-ok">
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </AdminModal>
  );
}

/** "Loading failed" with the server's message and a retry. */
export function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" title={t('state.loadFailedTitle')} data-testid="load-failed">
      <Group gap="sm">
        <Text size="sm">{errorText(error)}</Text>
        <Button size="xs" variant="light" color="red" onClick={onRetry}>
          {t('state.retry')}
        </Button>
      </Group>
    </Alert>
  );
}

/** The "from" and "to" instants of a list's time filter (local date and time inputs). */
export function TimeRangeInputs({
  from,
  to,
  onChange,
}: {
  from: string;
  to: string;
  onChange: (range: { from?: string; to?: string }) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput
        type="datetime-local"
        label={t('admin.common.from')}
        value={from}
        onChange={(event) => onChange({ from: event.currentTarget.value })}
        w={220}
      />
      <TextInput
        type="datetime-local"
        label={t('admin.common.to')}
        value={to}
        onChange={(event) => onChange({ to: event.currentTarget.value })}
        w={220}
      />
    </>
  );
}
