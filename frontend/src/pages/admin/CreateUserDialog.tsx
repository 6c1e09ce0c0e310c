import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createUser } from '../../api/admin';
import type { Organization } from '../../api/adminTypes';
import { failureText } from '../../api/client';
import { AdminModal, FormError, notifyFailure, notifySuccess, ShownOnce } from './common';
import { UserFields, useUserFields } from './UserFields';

/** A new user: shows the temporary password once (the user may choose their own later). */
export function CreateUserDialog({
  organizations,
  onClose,
}: {
  organizations: Organization[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const fields = useUserFields({ role: 'customer', organizationId: null, language: null });
  const [error, setError] = useState<string | null>(null);
  const [password, setPassword] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () =>
      createUser({
        email: email.trim(),
        role: fields.role,
        organizationId: fields.organization,
        language: fields.language,
        ...(displayName.trim() ? { displayName: displayName.trim() } : {}),
      }),
    onSuccess: ({ user, temporaryPassword }) => {
      notifySuccess(t('admin.users.created', { email: user.email }));
      setPassword(temporaryPassword);
      void client.invalidateQueries({ queryKey: ['admin'] });
    },
    onError: (failure) => {
      setError(failureText(failure, t));
      notifyFailure(failure);
    },
  });
  return (
    <AdminModal opened onClose={onClose} title={t('admin.users.createTitle')} centered size="lg">
      {password ? (
        <ShownOnce
          label={t('admin.users.temporaryPassword', { email: email.trim() })}
          value={password}
          testId="user-temporary-password"
          onDone={onClose}
        />
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate();
          }}
        >
          <Stack data-testid="user-create-dialog">
            <TextInput
              label={t('admin.users.email')}
              type="email"
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              required
              data-autofocus
              data-testid="user-email"
            />
            <TextInput
              label={t('admin.users.displayName')}
              value={displayName}
              onChange={(event) => setDisplayName(event.currentTarget.value)}
              data-testid="user-display-name"
            />
            <UserFields fields={fields} organizations={organizations} />
            <FormError error={error} testId="user-create-error" />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('admin.common.cancel')}
              </Button>
              <Button
                type="submit"
                loading={create.isPending}
                disabled={!email.trim() || !fields.complete}
                data-testid="user-create"
              >
                {t('admin.users.create')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </AdminModal>
  );
}
