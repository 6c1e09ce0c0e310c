import { ActionIcon, Select, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { listAdminVehicles } from '../../api/admin';
import type { VehicleAdmin } from '../../api/adminTypes';
import { PINNED_END } from '../../components/tables/PagedTable';
import { formatDateTime, formatNumber } from '../../lib/format';
import { ActionsHeader, AdminHeader, LoadFailed } from './common';
import { FollowedJob } from './jobs';
import { useSites } from './SitesPage';
import { VehicleDialog } from './VehicleDialog';

/**
 * Vehicles: by site; display name, battery capacity, in service or retired, move to another
 * site of the organization.
 */
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
          <Table.ScrollContainer minWidth={820}>
            <Table striped highlightOnHover data-testid="vehicles-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('admin.vehicles.name')}</Table.Th>
                  <Table.Th>{t('admin.vehicles.identity')}</Table.Th>
                  <Table.Th>{t('admin.vehicles.model')}</Table.Th>
                  <Table.Th>{t('admin.common.site')}</Table.Th>
                  <Table.Th ta="right">{t('admin.vehicles.batteryCapacity')}</Table.Th>
                  <Table.Th>{t('admin.vehicles.protocol')}</Table.Th>
                  <Table.Th>{t('admin.vehicles.status')}</Table.Th>
                  <ActionsHeader />
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
                    <Table.Td data-testid="vehicle-status">
                      {vehicle.retiredAt
                        ? t('admin.vehicles.retiredSince', {
                            date: formatDateTime(vehicle.retiredAt, i18n.language),
                          })
                        : t('admin.vehicles.inService')}
                    </Table.Td>
                    <Table.Td className={PINNED_END}>
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
