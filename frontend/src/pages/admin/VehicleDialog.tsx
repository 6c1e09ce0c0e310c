import { Alert, Button, Group, NumberInput, Select, Stack, Switch, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updateVehicle } from '../../api/admin';
import type { SiteAdmin, VehicleAdmin, VehiclePatch } from '../../api/adminTypes';
import { failureText } from '../../api/client';
import { formatNumber } from '../../lib/format';
import { AdminModal, FormError, notifyFailure, notifySuccess } from './common';
import { checkCapacity, MAX_CAPACITY_WH } from './vehicleCapacity';

/**
 * Edit a vehicle: display name, battery capacity, move to another site of the organization,
 * out of service (retired) or back in.
 */
export function VehicleDialog({
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
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [name, setName] = useState(vehicle.name);
  const [capacity, setCapacity] = useState<number | string>(vehicle.batteryCapacityWh ?? '');
  const [siteId, setSiteId] = useState(String(vehicle.siteId));
  const [retired, setRetired] = useState(vehicle.retiredAt != null);
  const [confirmMove, setConfirmMove] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const patch: VehiclePatch = {};
  if (name.trim() !== vehicle.name) patch.name = name.trim();
  const checked = checkCapacity(capacity);
  if (checked.problem === null && checked.value !== (vehicle.batteryCapacityWh ?? null))
    patch.batteryCapacityWh = checked.value;
  const capacityError =
    checked.problem &&
    t(`admin.vehicles.capacity.${checked.problem}`, {
      max: formatNumber(MAX_CAPACITY_WH, i18n.language),
    });
  const invalid = !name.trim() || capacityError !== null;
  const moving = Number(siteId) !== vehicle.siteId;
  if (moving) patch.siteId = Number(siteId);
  if (retired !== (vehicle.retiredAt != null)) patch.retired = retired;
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
  const submit = () => {
    // The form itself refuses, not only its Save button.
    if (invalid || Object.keys(patch).length === 0) return;
    if (moving && !confirmMove) setConfirmMove(true);
    else save.mutate();
  };

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
            // No min and no clamping: a value the API refuses stays as typed, with the
            // reason below it, instead of being saved as some other number.
            clampBehavior="none"
            suffix=" Wh"
            error={capacityError}
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
          <Switch
            label={t('admin.vehicles.retired')}
            description={t('admin.vehicles.retiredHint')}
            checked={retired}
            onChange={(event) => setRetired(event.currentTarget.checked)}
            data-testid="vehicle-retired"
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
              disabled={Object.keys(patch).length === 0 || invalid}
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
