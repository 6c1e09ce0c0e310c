import { Button, Group, MultiSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listUsers, savePartnerOrganizations } from '../../api/admin';
import type { Organization, UserAdmin } from '../../api/adminTypes';
import { LoadFailed, notifyFailure, notifySuccess } from './common';

/** Which organizations each partner user sees. */
export function PartnerLinks({ organizations }: { organizations: Organization[] }) {
  const { t } = useTranslation();
  const partners = useQuery({
    queryKey: ['admin', 'users', 'partners'],
    queryFn: () => listUsers({ page: 1, pageSize: 500, role: 'partner' }),
    staleTime: 0,
  });
  const items = partners.data?.items ?? [];
  return (
    <Paper withBorder radius="md" p="md" data-testid="partner-links">
      <Title order={2} size="h4" mb={4}>
        {t('admin.partners.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('admin.partners.description')}
      </Text>
      {partners.error ? (
        <LoadFailed error={partners.error} onRetry={() => void partners.refetch()} />
      ) : items.length === 0 ? (
        <Text size="sm" data-testid="partner-links-empty">
          {partners.isPending ? t('app.loading') : t('admin.partners.none')}
        </Text>
      ) : (
        <Stack gap="sm">
          {items.map((user) => (
            // A list saved (here or by someone else) starts the editor afresh from it.
            <PartnerLinkEditor
              key={`${user.id}:${user.partnerOrganizationIds.join(',')}`}
              user={user}
              organizations={organizations}
            />
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/** One partner's organizations (multi-select), saved with one click. */
export function PartnerLinkEditor({
  user,
  organizations,
}: {
  user: UserAdmin;
  organizations: Organization[];
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [selected, setSelected] = useState<string[]>(user.partnerOrganizationIds.map(String));
  const save = useMutation({
    mutationFn: () =>
      savePartnerOrganizations(user.id, selected.map(Number), user.partnerOrganizationIds),
    onSuccess: () => {
      notifySuccess(t('admin.partners.saved', { email: user.email }));
      void client.invalidateQueries({ queryKey: ['admin'] });
    },
    // Refused as made on an older list (409): the message says so; the list is read again.
    onError: (error) => {
      notifyFailure(error);
      void client.invalidateQueries({ queryKey: ['admin', 'users'] });
    },
  });
  const unchanged =
    [...selected].sort().join(',') === user.partnerOrganizationIds.map(String).sort().join(',');
  return (
    <Group align="flex-end" gap="sm" data-testid={`partner-link-${user.email}`}>
      <MultiSelect
        label={user.displayName ? `${user.displayName} (${user.email})` : user.email}
        data={organizations.map((organization) => ({
          value: String(organization.id),
          label: organization.name,
        }))}
        value={selected}
        onChange={setSelected}
        searchable
        clearable
        placeholder={selected.length === 0 ? t('admin.partners.placeholder') : undefined}
        style={{ flex: 1, maxWidth: 640 }}
      />
      <Button
        variant="light"
        onClick={() => save.mutate()}
        loading={save.isPending}
        disabled={unchanged}
      >
        {t('admin.common.save')}
      </Button>
    </Group>
  );
}
