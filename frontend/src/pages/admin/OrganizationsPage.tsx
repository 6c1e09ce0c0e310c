import { ActionIcon, Button, Group, Paper, Stack, Table, TextInput, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createOrganization,
  deleteOrganization,
  listOrganizations,
  renameOrganization,
} from '../../api/admin';
import type { Organization } from '../../api/adminTypes';
import { failureText } from '../../api/client';
import { PINNED_END } from '../../components/tables/PagedTable';
import {
  ActionsHeader,
  AdminHeader,
  AdminModal,
  LoadFailed,
  notifyFailure,
  notifySuccess,
  useDateTime,
} from './common';
import { DeleteAction } from './DeleteAction';
import { PartnerLinks } from './PartnerLinks';

export function useOrganizations() {
  return useQuery({
    queryKey: ['admin', 'organizations'],
    queryFn: listOrganizations,
    staleTime: 0,
  });
}

/** Organizations: create, rename, delete (only when empty), and the partner links. */
export function OrganizationsPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const dateTime = useDateTime();
  const organizations = useOrganizations();
  const [name, setName] = useState('');
  const [createError, setCreateError] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<Organization | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ['admin'] });

  const create = useMutation({
    mutationFn: () => createOrganization(name.trim()),
    onSuccess: (organization) => {
      notifySuccess(t('admin.organizations.created', { name: organization.name }));
      setName('');
      setCreateError(null);
      void refresh();
    },
    onError: (error) => {
      setCreateError(failureText(error, t));
      notifyFailure(error);
    },
  });

  return (
    <section data-testid="page-admin-organizations">
      <AdminHeader
        title={t('admin.menu.organizations')}
        description={t('admin.organizations.description')}
      />
      <Stack gap="lg">
        <Paper withBorder radius="md" p="md">
          <form
            onSubmit={(event) => {
              event.preventDefault();
              create.mutate();
            }}
          >
            <Group align="flex-start" gap="sm">
              <TextInput
                label={t('admin.organizations.name')}
                value={name}
                onChange={(event) => {
                  setName(event.currentTarget.value);
                  setCreateError(null);
                }}
                error={createError}
                required
                style={{ flex: 1, maxWidth: 420 }}
                data-testid="organization-name"
              />
              <Button
                type="submit"
                mt={25}
                leftSection={<IconPlus size={16} />}
                loading={create.isPending}
                disabled={!name.trim()}
                data-testid="organization-create"
              >
                {t('admin.organizations.create')}
              </Button>
            </Group>
          </form>
        </Paper>

        {organizations.error ? (
          <LoadFailed error={organizations.error} onRetry={() => void organizations.refetch()} />
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table striped highlightOnHover data-testid="organizations-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('admin.organizations.name')}</Table.Th>
                  <Table.Th ta="right">{t('admin.organizations.sites')}</Table.Th>
                  <Table.Th ta="right">{t('admin.organizations.users')}</Table.Th>
                  <Table.Th>{t('admin.common.created')}</Table.Th>
                  <ActionsHeader />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(organizations.data ?? []).map((organization) => (
                  <Table.Tr
                    key={organization.id}
                    data-testid={`organization-row-${organization.name}`}
                  >
                    <Table.Td fw={600}>{organization.name}</Table.Td>
                    <Table.Td ta="right">{organization.siteCount}</Table.Td>
                    <Table.Td ta="right">{organization.userCount}</Table.Td>
                    <Table.Td>{dateTime(organization.createdAt)}</Table.Td>
                    <Table.Td className={PINNED_END}>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Tooltip label={t('admin.common.rename')}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('admin.organizations.renameNamed', {
                              name: organization.name,
                            })}
                            onClick={() => setRenaming(organization)}
                            data-testid="organization-rename"
                          >
                            <IconPencil size={16} />
                          </ActionIcon>
                        </Tooltip>
                        <DeleteAction
                          label={t('admin.organizations.deleteNamed', { name: organization.name })}
                          title={t('admin.organizations.deleteTitle')}
                          message={t('admin.organizations.deleteConfirm', {
                            name: organization.name,
                          })}
                          deleted={t('admin.organizations.deleted', { name: organization.name })}
                          remove={() => deleteOrganization(organization.id)}
                          testId="organization-delete"
                        />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}

        <PartnerLinks organizations={organizations.data ?? []} />
      </Stack>

      {renaming && (
        <RenameDialog
          organization={renaming}
          onClose={() => setRenaming(null)}
          onRenamed={() => {
            setRenaming(null);
            void refresh();
          }}
        />
      )}
    </section>
  );
}

function RenameDialog({
  organization,
  onClose,
  onRenamed,
}: {
  organization: Organization;
  onClose: () => void;
  onRenamed: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(organization.name);
  const [error, setError] = useState<string | null>(null);
  const rename = useMutation({
    mutationFn: () => renameOrganization(organization.id, name.trim()),
    onSuccess: (renamed) => {
      notifySuccess(t('admin.organizations.renamed', { name: renamed.name }));
      onRenamed();
    },
    onError: (failure) => {
      setError(failureText(failure, t));
      notifyFailure(failure);
    },
  });
  return (
    <AdminModal opened onClose={onClose} title={t('admin.organizations.renameTitle')} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          rename.mutate();
        }}
      >
        <Stack>
          <TextInput
            label={t('admin.organizations.name')}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={error}
            required
            data-autofocus
            data-testid="organization-rename-name"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('admin.common.cancel')}
            </Button>
            <Button type="submit" loading={rename.isPending} disabled={!name.trim()}>
              {t('admin.common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AdminModal>
  );
}
