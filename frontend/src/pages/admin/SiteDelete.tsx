import { ActionIcon, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteSite } from '../../api/admin';
import type { SiteAdmin } from '../../api/adminTypes';
import { failureText } from '../../api/client';
import { ConfirmDialog, FormError, notifyFailure, notifySuccess } from './common';

/** A site's delete action and its confirmation. The server refuses a site that still has
 * vehicles (they would lose the way to their facts) and says how many; the dialog shows it. */
export function SiteDelete({ site }: { site: SiteAdmin }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: () => deleteSite(site.id),
    onSuccess: () => {
      notifySuccess(t('admin.sites.deleted', { name: site.name }));
      setOpened(false);
      void client.invalidateQueries({ queryKey: ['admin'] });
    },
    onError: (failure) => {
      setError(failureText(failure, t));
      notifyFailure(failure);
    },
  });
  return (
    <>
      <Tooltip label={t('admin.common.delete')}>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={t('admin.sites.deleteNamed', { name: site.name })}
          onClick={() => {
            setError(null);
            setOpened(true);
          }}
          data-testid="site-delete"
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Tooltip>
      <ConfirmDialog
        opened={opened}
        title={t('admin.sites.deleteTitle')}
        message={
          site.mqttInterface
            ? t('admin.sites.deleteConfirmInterface', {
                name: site.name,
                mqttInterface: site.mqttInterface,
              })
            : t('admin.sites.deleteConfirm', { name: site.name })
        }
        confirmLabel={t('admin.common.delete')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setOpened(false)}
      >
        <FormError error={error} testId="site-delete-error" />
      </ConfirmDialog>
    </>
  );
}
