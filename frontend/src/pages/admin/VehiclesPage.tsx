import {
  ActionIcon,
  Alert,
  Button,
  Group,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { listAdminVehicles, updateVehicle } from '../../api/admin';
import type { SiteAdmin, VehicleAdmin, VehiclePatch } from '../../api/adminTypes';
import { failureText } from '../../api/client';
import { formatNumber } from '../../lib/format';
import {
  AdminHeader,
  AdminModal,
  FormError,
  LoadFailed,
  notifyFailure,
  notifySuccess,
} from './common';
import { FollowedJob } from './jobs';
import { useSites } from './SitesPage';

/** Vehicles: by site; display name, battery capacity, move to another site of the organization. */
export function VehiclesPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const siteFilter = params.get('siteId');
  const sites = useSites();
  const vehicles = useQuery({
    queryKey: ['admin', 'vehicles', siteFilter ?? 'all'],
    queryFn: () => listAdminVehicles(siteFilter ? { siteId: Number(siteFilter) } : {}),
    staleTime: 0,
  });
  const [editing, setEditing] = useState<VehicleAdmin | null>(null);
  const [jobId, setJobId] = useState<number | null>(null);

  return (
    <section data-testid="page-admin-vehicles">
      <AdminHeader title={t('admin.menu.vehicles')} description={t('admin.vehicles.description')} />
      <Stack gap="lg">
        {jobId !== null && <FollowedJob id={jobId} />}
        <Select
          label={t('admin.common.site')}
          placeholder={t('admin.common.allSites')}
          data={(sites.data ?? []).map((site) => ({
            value: String(site.id),
            label: `${site.name} (${site.organizationName})`,
          }))}
          value={siteFilter}
          onChange={(value) => setParams(value ? { siteId: value } : {})}
          clearable
          searchable
          w={320}
          data-testid="vehicles-filter-site"
        />
        {vehicles.error ? (
          <LoadFailed error={vehicles.error} onRetry={() => void vehicles.refetch()} />
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table striped highlightOnHover data-testid="vehicles-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('admin.vehicles.name')}</Table.Th>
                  <Table.Th>{t('admin.vehicles.identity')}</Table.Th>
                  <Table.Th>{t('admin.vehicles.model')}</Table.Th>
                  <Table.Th>{t('admin.common.site')}</Table.Th>
                  <Table.Th ta="right">{t('admin.vehicles.batteryCapacity')}</Table.Th>
                  <Table.Th>{t('admin.vehicles.protocol')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('admin.common.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(vehicles.data ?? []).map((vehicle) => (
                  <Table.Tr key={vehicle.id} data-testid={`vehicle-row-${vehicle.serialNumber}`}>
                    <Table.Td fw={600}>{vehicle.name}</Table.Td>
                    <Table.Td>
                      {vehicle.manufacturer} / {vehicle.serialNumber}
                    </Table.Td>
                    <Table.Td>{vehicle.model ?? '—'}</Table.Td>
                    <Table.Td>{vehicle.siteName}</Table.Td>
                    <Table.Td ta="right">
                      {vehicle.batteryCapacityWh == null
                        ? '—'
                        : `${formatNumber(vehicle.batteryCapacityWh, i18n.language)} Wh`}
                    </Table.Td>
                    <Table.Td>{vehicle.protocolVersion ?? '—'}</Table.Td>
                    <Table.Td>
                      <Tooltip label={t('admin.common.edit')}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('admin.vehicles.editNamed', { name: vehicle.name })}
                          onClick={() => setEditing(vehicle)}
                          data-testid="vehicle-edit"
                        >
                          <IconPencil size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {vehicles.data?.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="vehicles-empty">
            {t('admin.vehicles.none')}
          </Text>
        )}
      </Stack>
      {editing && (
        <VehicleDialog
          vehicle={editing}
          sites={(sites.data ?? []).filter(
            (site) => site.organizationId === editing.organizationId,
          )}
          onClose={() => setEditing(null)}
          onSaved={(job) => {
            setEditing(null);
            if (job !== null) {
              setJobId(job);
            }
          }}
        />
      )}
    </section>
  );
}

function VehicleDialog({
  vehicle,
  sites,
  onClose,
  onSaved,
}: {
  vehicle: VehicleAdmin;
  sites: SiteAdmin[];
  onClose: () => void;
  onSaved: (jobId: number | null) => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [name, setName] = useState(vehicle.name);
  const [capacity, setCapacity] = useState<number | string>(vehicle.batteryCapacityWh ?? '');
  const [siteId, setSiteId] = useState(String(vehicle.siteId));
  const [confirmMove, setConfirmMove] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const patch: VehiclePatch = {};
  if (name.trim() !== vehicle.name) patch.name = name.trim();
  const capacityValue = capacity === '' ? null : Number(capacity);
  if (capacityValue !== (vehicle.batteryCapacityWh ?? null))
    patch.batteryCapacityWh = capacityValue;
  const moving = Number(siteId) !== vehicle.siteId;
  if (moving) patch.siteId = Number(siteId);
  const targetName = sites.find((site) => String(site.id) === siteId)?.name ?? '';

  const save = useMutation({
    mutationFn: () => updateVehicle(vehicle.id, patch),
    onSuccess: ({ vehicle: saved, job }) => {
      notifySuccess(t('admin.vehicles.saved', { name: saved.name }));
      if (job) {
        client.setQueryData(['admin', 'job', job.id], job);
        notifySuccess(t('admin.jobs.started'));
      }
      void client.invalidateQueries({ queryKey: ['admin'] });
      onSaved(job ? job.id : null);
    },
    onError: (failure) => {
      setConfirmMove(false);
      setError(failureText(failure, t));
      notifyFailure(failure);
    },
  });
  const submit = () => (moving && !confirmMove ? setConfirmMove(true) : save.mutate());

  return (
    <AdminModal
      opened
      onClose={onClose}
      title={t('admin.vehicles.editTitle', { name: vehicle.name })}
      centered
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack data-testid="vehicle-dialog">
          <TextInput
            label={t('admin.vehicles.name')}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            required
            data-autofocus
            data-testid="vehicle-name"
          />
          <NumberInput
            label={t('admin.vehicles.batteryCapacity')}
            description={t('admin.vehicles.batteryCapacityHint')}
            value={capacity}
            onChange={setCapacity}
            min={1}
            suffix=" Wh"
            allowNegative={false}
            data-testid="vehicle-capacity"
          />
          <Select
            label={t('admin.common.site')}
            description={t('admin.vehicles.siteHint')}
            data={sites.map((site) => ({ value: String(site.id), label: site.name }))}
            value={siteId}
            onChange={(value) => value && setSiteId(value)}
            allowDeselect={false}
            data-testid="vehicle-site"
          />
          {confirmMove && (
            <Alert color="orange" variant="light" data-testid="vehicle-move-confirm">
              {t('admin.vehicles.moveConfirm', { name: vehicle.name, site: targetName })}
            </Alert>
          )}
          <FormError error={error} testId="vehicle-error" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('admin.common.cancel')}
            </Button>
            <Button
              type="submit"
              color={confirmMove ? 'orange' : undefined}
              loading={save.isPending}
              disabled={Object.keys(patch).length === 0 || !name.trim()}
              data-testid="vehicle-save"
            >
              {confirmMove ? t('admin.vehicles.moveNow') : t('admin.common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AdminModal>
  );
}
