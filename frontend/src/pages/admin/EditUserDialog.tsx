import { Button, Divider, Group, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteUser, resetPassword, updateUser } from '../../api/admin';
import type { Organization, UserAdmin, UserPatch } from '../../api/adminTypes';
import { failureText } from '../../api/client';
import {
  AdminModal,
  ConfirmDialog,
  FormError,
  notifyFailure,
  notifySuccess,
  ShownOnce,
} from './common';
import { PartnerLinkEditor } from './PartnerLinks';
import { UserFields, useUserFields } from './UserFields';

/** One user: display name, role, organization and language (only what changed is sent),
 * partner links, password reset, deactivation, deletion. */
export function EditUserDialog({
  user,
  organizations,
  onClose,
}: {
  user: UserAdmin;
  organizations: Organization[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const fields = useUserFields({
    role: user.role,
    organizationId: user.organizationId ?? null,
    language: user.language,
  });
  const [displayName, setDisplayName] = useState(user.displayName ?? '');
  const [error, setError] = useState<string | null>(null);
  const [password, setPassword] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'reset' | 'deactivate' | 'reactivate' | 'delete' | null>(
    null,
  );
  const [current, setCurrent] = useState(user);
  const activation = current.isActive ? 'deactivate' : 'reactivate';

  const patch: UserPatch = {};
  if (fields.role !== current.role) patch.role = fields.role;
  if (fields.organization !== (current.organizationId ?? null)) {
    patch.organizationId = fields.organization;
  }
  if (fields.language !== current.language) {
    patch.language = fields.language;
  }
  if (displayName.trim() !== (current.displayName ?? '')) patch.displayName = displayName.trim();

  const refresh = () => client.invalidateQueries({ queryKey: ['admin'] });
  const save = useMutation({
    mutationFn: (change: UserPatch) => updateUser(user.id, change),
    onSuccess: (saved, change) => {
      setCurrent(saved);
      setError(null);
      setConfirm(null);
      const key =
        change.isActive === false
          ? 'admin.users.deactivated'
          : change.isActive === true
            ? 'admin.users.reactivated'
            : 'admin.users.saved';
      notifySuccess(t(key, { email: saved.email }));
      void refresh();
    },
    onError: (failure) => {
      setConfirm(null);
      setError(failureText(failure, t));
      notifyFailure(failure);
    },
  });
  const reset = useMutation({
    mutationFn: () => resetPassword(user.id),
    onSuccess: ({ temporaryPassword }) => {
      setConfirm(null);
      setPassword(temporaryPassword);
      notifySuccess(t('admin.users.passwordReset', { email: user.email }));
      void refresh();
    },
    onError: (failure) => {
      setConfirm(null);
      notifyFailure(failure);
    },
  });

  const remove = useMutation({
    mutationFn: () => deleteUser(user.id),
    onSuccess: () => {
      notifySuccess(t('admin.users.deleted', { email: user.email }));
      void refresh();
      onClose();
    },
    onError: (failure) => {
      setConfirm(null);
      setError(failureText(failure, t));
      notifyFailure(failure);
    },
  });

  return (
    <AdminModal
      opened
      onClose={onClose}
      title={t('admin.users.editTitle', { email: user.email })}
      centered
      size="lg"
    >
      <Stack data-testid="user-edit-dialog">
        {password && (
          <ShownOnce
            label={t('admin.users.temporaryPassword', { email: user.email })}
            value={password}
            testId="user-reset-password"
            onDone={() => setPassword(null)}
          />
        )}
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate(patch);
          }}
        >
          <Stack>
            <TextInput
              label={t('admin.users.displayName')}
              value={displayName}
              onChange={(event) => setDisplayName(event.currentTarget.value)}
            />
            <UserFields fields={fields} organizations={organizations} />
            <FormError error={error} testId="user-edit-error" />
            <Group justify="flex-end">
              <Button
                type="submit"
                loading={save.isPending && save.variables?.isActive === undefined}
                disabled={Object.keys(patch).length === 0 || !fields.complete}
                data-testid="user-save"
              >
                {t('admin.common.save')}
              </Button>
            </Group>
          </Stack>
        </form>
        {current.role === 'partner' && fields.role === 'partner' && (
          <>
            <Divider label={t('admin.partners.title')} labelPosition="left" />
            <PartnerLinkEditor user={current} organizations={organizations} />
          </>
        )}
        <Divider />
        <Group justify="space-between">
          <Button variant="light" onClick={() => setConfirm('reset')} data-testid="user-reset">
            {t('admin.users.resetPassword')}
          </Button>
          <Group gap="sm">
            <Button
              variant="light"
              color={current.isActive ? 'red' : 'green'}
              onClick={() => setConfirm(activation)}
              data-testid={`user-${activation}`}
            >
              {t(`admin.users.${activation}`)}
            </Button>
            <Button
              variant="subtle"
              color="red"
              onClick={() => setConfirm('delete')}
              data-testid="user-delete"
            >
              {t('admin.users.delete')}
            </Button>
          </Group>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirm !== null}
        title={confirm ? t(`admin.users.confirm.${confirm}Title`) : ''}
        message={confirm ? t(`admin.users.confirm.${confirm}`, { email: user.email }) : ''}
        confirmLabel={confirm ? t(`admin.users.confirm.${confirm}Ok`) : ''}
        pending={save.isPending || reset.isPending || remove.isPending}
        onConfirm={() => {
          if (confirm === 'reset') {
            reset.mutate();
          } else if (confirm === 'delete') {
            remove.mutate();
          } else if (confirm) {
            save.mutate({ isActive: confirm === 'reactivate' });
          }
        }}
        onClose={() => setConfirm(null)}
      />
    </AdminModal>
  );
}
