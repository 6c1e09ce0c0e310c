import {
  Anchor,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { createSite, deleteSite, listSites, listTimeZones } from '../../api/admin';
import { failureText } from '../../api/client';
import { PINNED_END } from '../../components/tables/PagedTable';
import {
  ActionsHeader,
  AdminHeader,
  HINT_BELOW,
  LoadFailed,
  notifyFailure,
  notifySuccess,
  refusedField,
} from './common';
import { DeleteAction } from './DeleteAction';
import { useOrganizations } from './OrganizationsPage';

export const DEFAULT_TIME_ZONE = 'Europe/Berlin';

export function useSites(organizationId?: number) {
  return useQuery({
    queryKey: ['admin', 'sites', organizationId ?? 'all'],
    queryFn: () => listSites(organizationId),
    staleTime: 0,
  });
}

export function useTimeZones() {
  // The IANA list does not change while the app runs.
  return useQuery({
    queryKey: ['admin', 'timeZones'],
    queryFn: listTimeZones,
    staleTime: Infinity,
  });
}

/** A searchable select of the server's IANA time zones. */
export function TimeZoneSelect({
  value,
  onChange,
  error,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  testId: string;
}) {
  const { t } = useTranslation();
  const zones = useTimeZones();
  return (
    <Select
      label={t('admin.sites.timeZone')}
      data={zones.data ?? [value]}
      value={value}
      onChange={(next) => next && onChange(next)}
      searchable
      limit={100}
      nothingFoundMessage={t('admin.common.nothingFound')}
      error={error ?? (zones.error ? failureText(zones.error, t) : null)}
      required
      data-testid={testId}
    />
  );
}

/** Sites: list by organization, create, delete (only without vehicles); a site's row opens
 * its settings. */
export function SitesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const organizations = useOrganizations();
  const [filter, setFilter] = useState<string | null>(null);
  const sites = useSites(filter ? Number(filter) : undefined);
  const [organizationId, setOrganizationId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [timeZone, setTimeZone] = useState(DEFAULT_TIME_ZONE);
  const [mqttInterface, setMqttInterface] = useState('');
  const [error, setError] = useState<string | null>(null);
  const organizationOptions = (organizations.data ?? []).map((organization) => ({
    value: String(organization.id),
    label: organization.name,
  }));

  const create = useMutation({
    mutationFn: () =>
      createSite({
        organizationId: Number(organizationId),
        name: name.trim(),
        timeZone,
        ...(mqttInterface.trim() ? { mqttInterface: mqttInterface.trim() } : {}),
      }),
    onSuccess: (site) => {
      notifySuccess(t('admin.sites.created', { name: site.name }));
      setName('');
      setMqttInterface('');
      setError(null);
      void client.invalidateQueries({ queryKey: ['admin'] });
      void navigate(`/admin/sites/${site.id}`);
    },
    onError: (failure) => {
      setError(failureText(failure, t));
      notifyFailure(failure);
    },
  });

  // A refusal shows at the field it names (an interface in use or not a topic level).
  const errorAt = refusedField(error, ['organizationId', 'mqttInterface'] as const);
  const errorOf = (field: typeof errorAt) => (errorAt === field ? error : null);

  return (
    <section data-testid="page-admin-sites">
      <AdminHeader title={t('admin.menu.sites')} description={t('admin.sites.description')} />
      <Stack gap="lg">
        <Paper withBorder radius="md" p="md">
          <Title order={2} size="h4" mb="sm">
            {t('admin.sites.createTitle')}
          </Title>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              create.mutate();
            }}
          >
            <Group align="flex-start" gap="sm" wrap="wrap">
              <Select
                label={t('admin.common.organization')}
                data={organizationOptions}
                value={organizationId}
                onChange={setOrganizationId}
                searchable
                required
                w={240}
                error={errorOf('organizationId')}
                data-testid="site-organization"
              />
              <TextInput
                label={t('admin.sites.name')}
                value={name}
                onChange={(event) => setName(event.currentTarget.value)}
                required
                w={240}
                error={errorOf(null)}
                data-testid="site-name"
              />
              <div style={{ width: 240 }}>
                <TimeZoneSelect value={timeZone} onChange={setTimeZone} testId="site-time-zone" />
              </div>
              <TextInput
                label={t('admin.sites.mqttInterface')}
                description={t('admin.sites.mqttInterfaceHint')}
                inputWrapperOrder={HINT_BELOW}
                value={mqttInterface}
                onChange={(event) => setMqttInterface(event.currentTarget.value)}
                w={240}
                error={errorOf('mqttInterface')}
                data-testid="site-mqtt-interface"
              />
              <Button
                type="submit"
                mt={25}
                leftSection={<IconPlus size={16} />}
                loading={create.isPending}
                disabled={!organizationId || !name.trim()}
                data-testid="site-create"
              >
                {t('admin.sites.create')}
              </Button>
            </Group>
          </form>
        </Paper>

        <Group>
          <Select
            label={t('admin.common.organization')}
            placeholder={t('admin.common.allOrganizations')}
            data={organizationOptions}
            value={filter}
            onChange={setFilter}
            clearable
            w={280}
            data-testid="sites-filter-organization"
          />
        </Group>

        {sites.error ? (
          <LoadFailed error={sites.error} onRetry={() => void sites.refetch()} />
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table striped highlightOnHover data-testid="sites-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('admin.sites.name')}</Table.Th>
                  <Table.Th>{t('admin.common.organization')}</Table.Th>
                  <Table.Th>{t('admin.sites.timeZone')}</Table.Th>
                  <Table.Th>{t('admin.sites.mqttInterface')}</Table.Th>
                  <Table.Th ta="right">{t('admin.sites.vehicles')}</Table.Th>
                  <Table.Th ta="right">{t('admin.sites.shiftCount')}</Table.Th>
                  <Table.Th ta="right">{t('admin.sites.ruleCount')}</Table.Th>
                  <ActionsHeader />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(sites.data ?? []).map((site) => (
                  <Table.Tr key={site.id} data-testid={`site-row-${site.name}`}>
                    <Table.Td fw={600}>
                      <Anchor component={Link} to={`/admin/sites/${site.id}`}>
                        {site.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{site.organizationName}</Table.Td>
                    <Table.Td>{site.timeZone}</Table.Td>
                    <Table.Td>{site.mqttInterface || '—'}</Table.Td>
                    <Table.Td ta="right">{site.vehicleCount}</Table.Td>
                    <Table.Td ta="right">{site.shifts.length}</Table.Td>
                    <Table.Td ta="right">{site.workflowRules.length}</Table.Td>
                    <Table.Td className={PINNED_END} ta="right">
                      <DeleteAction
                        label={t('admin.sites.deleteNamed', { name: site.name })}
                        title={t('admin.sites.deleteTitle')}
                        message={
                          site.mqttInterface
                            ? t('admin.sites.deleteConfirmInterface', {
                                name: site.name,
                                mqttInterface: site.mqttInterface,
                              })
                            : t('admin.sites.deleteConfirm', { name: site.name })
                        }
                        deleted={t('admin.sites.deleted', { name: site.name })}
                        remove={() => deleteSite(site.id)}
                        testId="site-delete"
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {sites.data?.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="sites-empty">
            {t('admin.sites.none')}
          </Text>
        )}
      </Stack>
    </section>
  );
}
