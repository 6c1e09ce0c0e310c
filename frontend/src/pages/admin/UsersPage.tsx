import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Select,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPencil, IconPlus, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listUsers } from '../../api/admin';
import type { UserAdmin } from '../../api/adminTypes';
import { ROLES, type Role } from '../../api/types';
import { initialListState, listReducer, pagerOf } from '../../components/tables/listState';
import { type PagedColumn, PagedTable } from '../../components/tables/PagedTable';
import { CreateUserDialog } from './CreateUserDialog';
import { AdminHeader, useDateTime } from './common';
import { EditUserDialog } from './EditUserDialog';
import { useOrganizations } from './OrganizationsPage';

interface UserFilters {
  role: Role | null;
  organizationId: string | null;
}

const reduceUsers = listReducer<UserFilters>('email');

/** Users: paged list with search; create, change role/organization/language, reset, deactivate. */
export function UsersPage() {
  const { t } = useTranslation();
  const dateTime = useDateTime();
  const organizations = useOrganizations();
  const [list, dispatch] = useReducer(
    reduceUsers,
    initialListState<UserFilters>({ role: null, organizationId: null }),
  );
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const users = useQuery({
    queryKey: ['admin', 'users', list, debouncedSearch],
    queryFn: () =>
      listUsers({
        page: list.page,
        pageSize: list.pageSize,
        search: debouncedSearch || undefined,
        role: list.filters.role ?? undefined,
        organizationId: list.filters.organizationId
          ? Number(list.filters.organizationId)
          : undefined,
      }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<UserAdmin | null>(null);
  const organizationOptions = (organizations.data ?? []).map((organization) => ({
    value: String(organization.id),
    label: organization.name,
  }));

  const columns: PagedColumn<UserAdmin>[] = [
    {
      key: 'email',
      label: t('admin.users.email'),
      render: (user) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {user.email}
          </Text>
          {user.displayName && (
            <Text size="xs" c="dimmed">
              {user.displayName}
            </Text>
          )}
        </Stack>
      ),
    },
    { key: 'role', label: t('admin.users.role'), render: (user) => t(`admin.roles.${user.role}`) },
    {
      key: 'organization',
      label: t('admin.common.organization'),
      render: (user) => user.organizationName ?? '—',
    },
    {
      key: 'language',
      label: t('admin.users.language'),
      render: (user) => t(`language.${user.language ?? 'browser'}`),
    },
    {
      key: 'active',
      label: t('admin.users.status'),
      render: (user) => (
        <Group gap={4}>
          {user.isActive ? (
            <Badge variant="light" color="green">
              {t('admin.users.active')}
            </Badge>
          ) : (
            <Badge variant="light" color="gray">
              {t('admin.users.inactive')}
            </Badge>
          )}
          {user.passwordTemporary && (
            <Tooltip label={t('admin.users.passwordTemporaryHint')}>
              <Badge variant="light" color="orange" data-testid="user-password-temporary">
                {t('admin.users.passwordTemporary')}
              </Badge>
            </Tooltip>
          )}
        </Group>
      ),
    },
    {
      key: 'lastLogin',
      label: t('admin.users.lastLogin'),
      render: (user) => dateTime(user.lastLoginAt),
    },
    {
      key: 'actions',
      label: t('admin.common.actions'),
      pinned: true,
      render: (user) => (
        <Tooltip label={t('admin.common.edit')}>
          <ActionIcon
            variant="subtle"
            aria-label={t('admin.users.editNamed', { email: user.email })}
            onClick={() => setEditing(user)}
            data-testid="user-edit"
          >
            <IconPencil size={16} />
          </ActionIcon>
        </Tooltip>
      ),
    },
  ];

  return (
    <section data-testid="page-admin-users">
      <AdminHeader
        title={t('admin.menu.users')}
        description={t('admin.users.description')}
        actions={
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => setCreating(true)}
            data-testid="user-create-open"
          >
            {t('admin.users.create')}
          </Button>
        }
      />
      <Stack gap="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            label={t('admin.users.search')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              dispatch({ type: 'filter', filters: {} });
            }}
            w={280}
            data-testid="users-search"
          />
          <Select
            label={t('admin.users.role')}
            placeholder={t('admin.users.allRoles')}
            data={ROLES.map((role) => ({ value: role, label: t(`admin.roles.${role}`) }))}
            value={list.filters.role}
            onChange={(value) =>
              dispatch({ type: 'filter', filters: { role: value as Role | null } })
            }
            clearable
            w={200}
          />
          <Select
            label={t('admin.common.organization')}
            placeholder={t('admin.common.allOrganizations')}
            data={organizationOptions}
            value={list.filters.organizationId}
            onChange={(value) => dispatch({ type: 'filter', filters: { organizationId: value } })}
            clearable
            searchable
            w={240}
          />
        </Group>
        <PagedTable
          testId="users-table"
          columns={columns}
          rows={users.data?.items}
          rowKey={(user) => String(user.id)}
          rowTestId={(user) => `user-row-${user.email}`}
          pager={pagerOf(list, users.data, dispatch)}
          isPending={users.isPending}
          error={users.error}
          onRetry={() => void users.refetch()}
          empty={
            <Text size="sm" c="dimmed" data-testid="users-empty">
              {t('admin.users.none')}
            </Text>
          }
        />
      </Stack>
      {creating && (
        <CreateUserDialog
          organizations={organizations.data ?? []}
          onClose={() => setCreating(false)}
        />
      )}
      {editing && (
        <EditUserDialog
          user={editing}
          organizations={organizations.data ?? []}
          onClose={() => setEditing(null)}
        />
      )}
    </section>
  );
}
