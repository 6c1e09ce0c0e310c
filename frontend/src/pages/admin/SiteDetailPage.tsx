import {
  Anchor,
  Breadcrumbs,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { getSite, updateSite } from '../../api/admin';
import type { AdminShift, SiteAdmin, SitePatch } from '../../api/adminTypes';
import { ApiFailure, failureText } from '../../api/client';
import {
  AdminHeader,
  FormError,
  HINT_BELOW,
  LoadFailed,
  notifyFailure,
  notifySuccess,
} from './common';
import { FollowedJob } from './jobs';
import { ShiftEditor } from './ShiftEditor';
import { TimeZoneSelect } from './SitesPage';
import { WorkflowRulesEditor } from './WorkflowRulesEditor';

type Section = 'general' | 'shifts' | 'rules' | 'loadActions';

/** One site: name, time zone, MQTT interface, shift calendar, workflow rules. */
export function SiteDetailPage() {
  const { t } = useTranslation();
  const { siteId } = useParams();
  const id = Number(siteId);
  const client = useQueryClient();
  const site = useQuery({
    queryKey: ['admin', 'site', id],
    queryFn: () => getSite(id),
    enabled: Number.isInteger(id),
    staleTime: 0,
  });
  const [errors, setErrors] = useState<Partial<Record<Section, string>>>({});
  const [jobId, setJobId] = useState<number | null>(null);

  const save = useMutation({
    // Made on the version shown: a change another administrator saved meanwhile is refused
    // (409), not undone by this section's whole list.
    mutationFn: ({ patch }: { patch: SitePatch; section: Section }) =>
      updateSite(id, { ...patch, version: site.data?.version }),
    onSuccess: ({ site: saved, job }, { section }) => {
      notifySuccess(t(`admin.sites.saved.${section}`, { name: saved.name }));
      setErrors((current) => ({ ...current, [section]: undefined }));
      client.setQueryData(['admin', 'site', id], saved);
      if (job) {
        // The answer carries the job: its progress shows at once, then is polled.
        client.setQueryData(['admin', 'job', job.id], job);
        setJobId(job.id);
        notifySuccess(t('admin.jobs.started'));
      }
      void client.invalidateQueries({ queryKey: ['admin'] });
    },
    onError: (error, { section }) => {
      setErrors((current) => ({ ...current, [section]: failureText(error, t) }));
      notifyFailure(error);
      if (error instanceof ApiFailure && error.httpStatus === 409) {
        // Someone else's change (or a name or interface taken): show the site as it is now.
        void client.invalidateQueries({ queryKey: ['admin', 'site', id] });
      }
    },
  });
  const clearError = (section: Section) => () =>
    setErrors((current) => (current[section] ? { ...current, [section]: undefined } : current));
  const saving = (section: Section) => save.isPending && save.variables?.section === section;

  return (
    <section data-testid="page-admin-site">
      <AdminHeader
        title={site.data ? site.data.name : t('admin.sites.site')}
        description={
          site.data
            ? t('admin.sites.detailDescription', {
                organization: site.data.organizationName,
                count: site.data.vehicleCount,
              })
            : undefined
        }
      />
      <Breadcrumbs mb="md">
        <Anchor component={Link} to="/admin/sites">
          {t('admin.menu.sites')}
        </Anchor>
        <Text size="sm">{site.data?.name ?? '…'}</Text>
      </Breadcrumbs>
      {site.error ? (
        <LoadFailed error={site.error} onRetry={() => void site.refetch()} />
      ) : !site.data ? (
        <Skeleton height={320} radius="md" />
      ) : (
        <Stack gap="lg">
          {jobId !== null && <FollowedJob id={jobId} />}
          <Card title={t('admin.sites.general')}>
            <GeneralForm
              site={site.data}
              saving={saving('general')}
              error={errors.general ?? null}
              onEdit={clearError('general')}
              onSave={(patch) => save.mutate({ patch, section: 'general' })}
            />
            <Anchor
              component={Link}
              to={`/admin/tokens?siteId=${id}`}
              size="sm"
              mt="sm"
              display="inline-block"
              data-testid="site-tokens-link"
            >
              {t('admin.sites.tokensLink')}
            </Anchor>
          </Card>
          <Card title={t('admin.shifts.title')} description={t('admin.shifts.description')}>
            <ShiftEditor
              shifts={site.data.shifts}
              saving={saving('shifts')}
              serverError={errors.shifts ?? null}
              onEdit={clearError('shifts')}
              onSave={(shifts: AdminShift[]) =>
                save.mutate({ patch: { shifts }, section: 'shifts' })
              }
            />
          </Card>
          <Card title={t('admin.rules.title')} description={t('admin.rules.description')}>
            <WorkflowRulesEditor
              siteId={id}
              rules={site.data.workflowRules}
              saving={saving('rules')}
              serverError={errors.rules ?? null}
              onEdit={clearError('rules')}
              onSave={(workflowRules) =>
                save.mutate({ patch: { workflowRules }, section: 'rules' })
              }
            />
          </Card>
          <Card
            title={t('admin.loadActions.title')}
            description={t('admin.loadActions.description')}
          >
            <LoadActionsForm
              types={site.data.loadActionTypes}
              saving={saving('loadActions')}
              error={errors.loadActions ?? null}
              onEdit={clearError('loadActions')}
              onSave={(loadActionTypes) =>
                save.mutate({ patch: { loadActionTypes }, section: 'loadActions' })
              }
            />
          </Card>
        </Stack>
      )}
    </section>
  );
}

function Card({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h4" mb={description ? 4 : 'sm'}>
        {title}
      </Title>
      {description && (
        <Text size="sm" c="dimmed" mb="sm">
          {description}
        </Text>
      )}
      {children}
    </Paper>
  );
}

function GeneralForm({
  site,
  saving,
  error,
  onEdit,
  onSave,
}: {
  site: SiteAdmin;
  saving: boolean;
  error: string | null;
  onEdit: () => void;
  onSave: (patch: SitePatch) => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(site.name);
  const [timeZone, setTimeZone] = useState(site.timeZone);
  const [mqttInterface, setMqttInterface] = useState(site.mqttInterface ?? '');
  useEffect(() => {
    setName(site.name);
    setTimeZone(site.timeZone);
    setMqttInterface(site.mqttInterface ?? '');
  }, [site.name, site.timeZone, site.mqttInterface]);
  const patch: SitePatch = {};
  if (name.trim() !== site.name) patch.name = name.trim();
  if (timeZone !== site.timeZone) patch.timeZone = timeZone;
  if (mqttInterface.trim() !== (site.mqttInterface ?? '')) {
    patch.mqttInterface = mqttInterface.trim() || null;
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSave(patch);
      }}
    >
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput
          label={t('admin.sites.name')}
          value={name}
          onChange={(event) => {
            onEdit();
            setName(event.currentTarget.value);
          }}
          required
          w={260}
          data-testid="site-edit-name"
        />
        <div style={{ width: 260 }}>
          <TimeZoneSelect
            value={timeZone}
            onChange={(value) => {
              onEdit();
              setTimeZone(value);
            }}
            testId="site-edit-time-zone"
          />
        </div>
        <TextInput
          label={t('admin.sites.mqttInterface')}
          description={t('admin.sites.mqttInterfaceHint')}
          inputWrapperOrder={HINT_BELOW}
          value={mqttInterface}
          onChange={(event) => {
            onEdit();
            setMqttInterface(event.currentTarget.value);
          }}
          w={260}
          data-testid="site-edit-mqtt-interface"
        />
        <Button
          type="submit"
          mt={25}
          loading={saving}
          disabled={Object.keys(patch).length === 0 || !name.trim()}
          data-testid="site-general-save"
        >
          {t('admin.common.save')}
        </Button>
      </Group>
      <FormError error={error} mt="xs" testId="site-general-error" />
    </form>
  );
}

function LoadActionsForm({
  types,
  saving,
  error,
  onEdit,
  onSave,
}: {
  types: string[];
  saving: boolean;
  error: string | null;
  onEdit: () => void;
  onSave: (types: string[]) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(types);
  const savedKey = JSON.stringify(types);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the saved types' value
  useEffect(() => setDraft(types), [savedKey]);
  const changed = JSON.stringify(draft) !== JSON.stringify(types);
  return (
    <Group align="flex-start" gap="sm">
      <TagsInput
        label={t('admin.loadActions.label')}
        value={draft}
        onChange={(value) => {
          onEdit();
          setDraft(value);
        }}
        error={error}
        clearable
        style={{ flex: 1, maxWidth: 640 }}
        data-testid="load-action-types"
      />
      <Button mt={25} onClick={() => onSave(draft)} loading={saving} disabled={!changed}>
        {t('admin.common.save')}
      </Button>
    </Group>
  );
}
