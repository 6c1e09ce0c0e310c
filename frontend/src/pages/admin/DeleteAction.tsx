import { ActionIcon, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureText } from '../../api/client';
import { ConfirmDialog, FormError, notifyFailure, notifySuccess } from './common';

/**
 * A row's bin and its confirmation. The server refuses what still holds data (an organization
 * with sites or users, a site with vehicles) and says how much; the dialog shows its message.
 * Test ids: `testId` on the bin, `<testId>-error` on the refusal.
 */
export function DeleteAction({
  label,
  title,
  message,
  deleted,
  remove,
  testId,
}: {
  label: string;
  title: string;
  message: string;
  deleted: string;
  remove: () => Promise<unknown>;
  testId: string;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: () => {
      notifySuccess(deleted);
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
          aria-label={label}
          onClick={() => {
            setError(null);
            setOpened(true);
          }}
          data-testid={testId}
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Tooltip>
      <ConfirmDialog
        opened={opened}
        title={title}
        message={message}
        confirmLabel={t('admin.common.delete')}
        pending={mutation.isPending}
        onConfirm={() => mutation.mutate()}
        onClose={() => setOpened(false)}
      >
        <FormError error={error} testId={`${testId}-error`} />
      </ConfirmDialog>
    </>
  );
}
