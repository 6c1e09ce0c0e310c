import { Anchor, Paper, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useReducer } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { listJobs, listSites } from '../../api/admin';
import type { Job, SiteAdmin } from '../../api/adminTypes';
import { initialListState, listReducer, pagerOf } from '../../components/tables/listState';
import { type PagedColumn, PagedTable } from '../../components/tables/PagedTable';
import { AdminHeader, useDateTime } from './common';
import { isJobActive } from './jobProgress';
import { JobProgress, pollWhileActive } from './jobs';

const reduceJobs = listReducer<Record<string, never>>('-createdAt');

/**
 * Re-derivation jobs, newest first, read from the server (a reload finds them again) and
 * polled while one of the shown jobs still works.
 */
export function JobsPage() {
  const { t } = useTranslation();
  const dateTime = useDateTime();
  const [list, dispatch] = useReducer(reduceJobs, initialListState<Record<string, never>>({}, 25));
  const jobs = useQuery({
    queryKey: ['admin', 'jobs', 'page', list.page, list.pageSize],
    queryFn: () => listJobs(list.page, list.pageSize),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (query) => pollWhileActive(query.state.data?.items ?? []),
  });
  const active = (jobs.data?.items ?? []).filter(isJobActive);
  // The sites' names: a job names its site by id, and keeps it after the site is deleted.
  const sites = useQuery({ queryKey: ['admin', 'sites', 'all'], queryFn: () => listSites() });
  const siteOf = (id: number) => sites.data?.find((site) => site.id === id);

  const columns: PagedColumn<Job>[] = [
    {
      key: 'progress',
      label: t('admin.jobs.progress'),
      render: (job) => (
        <div style={{ minWidth: 280, whiteSpace: 'normal' }}>
          <JobProgress job={job} />
        </div>
      ),
    },
    {
      key: 'scope',
      label: t('admin.jobs.scope'),
      render: (job) => (
        <Stack gap={0}>
          {job.siteId != null && <JobSite id={job.siteId} site={siteOf(job.siteId)} />}
          <Text size="xs" c="dimmed">
            {t('admin.jobs.vehicles', { count: job.vehicleIds.length })}
          </Text>
        </Stack>
      ),
    },
    { key: 'createdBy', label: t('admin.jobs.createdBy'), render: (job) => job.createdBy },
    {
      key: 'createdAt',
      label: t('admin.common.created'),
      render: (job) => dateTime(job.createdAt),
    },
    {
      key: 'finishedAt',
      label: t('admin.jobs.finished'),
      render: (job) => dateTime(job.finishedAt),
    },
  ];

  return (
    <section data-testid="page-admin-jobs">
      <AdminHeader title={t('admin.menu.jobs')} description={t('admin.jobs.description')} />
      <Stack gap="md">
        {active.length > 0 && (
          <Paper withBorder radius="md" p="md" data-testid="jobs-active">
            <Stack gap="md">
              {active.map((job) => (
                <JobProgress key={job.id} job={job} />
              ))}
            </Stack>
          </Paper>
        )}
        <PagedTable
          testId="jobs-table"
          columns={columns}
          rows={jobs.data?.items}
          rowKey={(job) => String(job.id)}
          rowTestId={(job) => `job-row-${job.id}`}
          pager={pagerOf(list, jobs.data, dispatch)}
          isPending={jobs.isPending}
          error={jobs.error}
          onRetry={() => void jobs.refetch()}
          empty={
            <Text size="sm" c="dimmed" data-testid="jobs-empty">
              {t('admin.jobs.none')}
            </Text>
          }
        />
      </Stack>
    </section>
  );
}

/** The job's site as a link to its page, or by id while the sites load or once it is deleted. */
function JobSite({ id, site }: { id: number; site: SiteAdmin | undefined }) {
  const { t } = useTranslation();
  if (!site) {
    return <Text size="sm">{t('admin.jobs.site', { id })}</Text>;
  }
  return (
    <Anchor component={Link} to={`/admin/sites/${id}`} size="sm">
      {site.name}
    </Anchor>
  );
}
