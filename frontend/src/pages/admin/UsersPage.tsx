import {
  ActionIcon,
  Badge,
  Button,
  Divider,
  Group,
  Select,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPencil, IconPlus, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createUser, listUsers, resetPassword, updateUser } from '../../api/admin';
import type { Organization, UserAdmin, UserPatch } from '../../api/adminTypes';
import { ROLES, type Role } from '../../api/types';
import { initialListState, listReducer, pagerOf } from '../../components/tables/listState';
import { type PagedColumn, PagedTable } from '../../components/tables/PagedTable';
import { SUPPORTED_LANGUAGES } from '../../constants';
import {
  AdminHeader,
  AdminModal,
  ConfirmDialog,
  errorText,
  notifyFailure,
  notifySuccess,
  ShownOnce,
  useDateTime,
} from './common';
import { PartnerLinkEditor, useOrganizations } from './OrganizationsPage';

/** Roles that belong to one organization (the others see several or all). */
export const ORGANIZATION_ROLES: readonly Role[] = ['customer', 'service'];

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
      render: (user) => t(`language.${user.language}`),
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

function UserFields({
  role,
  organizationId,
  language,
  organizations,
  onRole,
  onOrganization,
  onLanguage,
}: {
  role: Role;
  organizationId: string | null;
  language: string;
  organizations: Organization[];
  onRole: (role: Role) => void;
  onOrganization: (id: string | null) => void;
  onLanguage: (language: string) => void;
}) {
  const { t } = useTranslation();
  const needsOrganization = ORGANIZATION_ROLES.includes(role);
  return (
    <>
      <Select
        label={t('admin.users.role')}
        data={ROLES.map((value) => ({ value, label: t(`admin.roles.${value}`) }))}
        value={role}
        onChange={(value) => value && onRole(value as Role)}
        allowDeselect={false}
        data-testid="user-role"
      />
      <Select
        label={t('admin.common.organization')}
        description={needsOrganization ? undefined : t('admin.users.noOrganizationForRole')}
        data={organizations.map((organization) => ({
          value: String(organization.id),
          label: organization.name,
        }))}
        value={needsOrganization ? organizationId : null}
        onChange={onOrganization}
        disabled={!needsOrganization}
        required={needsOrganization}
        searchable
        data-testid="user-organization"
      />
      <Select
        label={t('admin.users.language')}
        data={SUPPORTED_LANGUAGES.map((value) => ({ value, label: t(`language.${value}`) }))}
        value={language}
        onChange={(value) => value && onLanguage(value)}
        allowDeselect={false}
        data-testid="user-language"
      />
    </>
  );
}

function CreateUserDialog({
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
  const [role, setRole] = useState<Role>('customer');
  const [organizationId, setOrganizationId] = useState<string | null>(null);
  const [language, setLanguage] = useState('en');
  const [error, setError] = useState<string | null>(null);
  const [password, setPassword] = useState<string | null>(null);
  const needsOrganization = ORGANIZATION_ROLES.includes(role);
  const create = useMutation({
    mutationFn: () =>
      createUser({
        email: email.trim(),
        role,
        organizationId: needsOrganization ? Number(organizationId) : null,
        language,
        ...(displayName.trim() ? { displayName: displayName.trim() } : {}),
      }),
    onSuccess: ({ user, temporaryPassword }) => {
      notifySuccess(t('admin.users.created', { email: user.email }));
      setPassword(temporaryPassword);
      void client.invalidateQueries({ queryKey: ['admin'] });
    },
    onError: (failure) => {
      setError(errorText(failure));
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
            <UserFields
              role={role}
              organizationId={organizationId}
              language={language}
              organizations={organizations}
              onRole={setRole}
              onOrganization={setOrganizationId}
              onLanguage={setLanguage}
            />
            {error && (
              <Text size="sm" c="red.8" data-testid="user-create-error">
                {error}
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('admin.common.cancel')}
              </Button>
              <Button
                type="submit"
                loading={create.isPending}
                disabled={!email.trim() || (needsOrganization && !organizationId)}
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

function EditUserDialog({
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
  const [role, setRole] = useState<Role>(user.role);
  const [organizationId, setOrganizationId] = useState<string | null>(
    user.organizationId == null ? null : String(user.organizationId),
  );
  const [language, setLanguage] = useState(user.language);
  const [displayName, setDisplayName] = useState(user.displayName ?? '');
  const [error, setError] = useState<string | null>(null);
  const [password, setPassword] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'reset' | 'deactivate' | 'reactivate' | null>(null);
  const [current, setCurrent] = useState(user);
  const needsOrganization = ORGANIZATION_ROLES.includes(role);

  const patch: UserPatch = {};
  if (role !== current.role) patch.role = role;
  const wantedOrganization = needsOrganization && organizationId ? Number(organizationId) : null;
  if (wantedOrganization !== (current.organizationId ?? null)) {
    patch.organizationId = wantedOrganization;
  }
  if (language !== current.language) patch.language = language;
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
      setError(errorText(failure));
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
            <UserFields
              role={role}
              organizationId={organizationId}
              language={language}
              organizations={organizations}
              onRole={setRole}
              onOrganization={setOrganizationId}
              onLanguage={setLanguage}
            />
            {error && (
              <Text size="sm" c="red.8" data-testid="user-edit-error">
                {error}
              </Text>
            )}
            <Group justify="flex-end">
              <Button
                type="submit"
                loading={save.isPending && save.variables?.isActive === undefined}
                disabled={Object.keys(patch).length === 0 || (needsOrganization && !organizationId)}
                data-testid="user-save"
              >
                {t('admin.common.save')}
              </Button>
            </Group>
          </Stack>
        </form>
        {current.role === 'partner' && role === 'partner' && (
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
          {current.isActive ? (
            <Button
              variant="light"
              color="red"
              onClick={() => setConfirm('deactivate')}
              data-testid="user-deactivate"
            >
              {t('admin.users.deactivate')}
            </Button>
          ) : (
            <Button
              variant="light"
              color="green"
              onClick={() => setConfirm('reactivate')}
              data-testid="user-reactivate"
            >
              {t('admin.users.reactivate')}
            </Button>
          )}
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirm !== null}
        title={confirm ? t(`admin.users.confirm.${confirm}Title`) : ''}
        message={confirm ? t(`admin.users.confirm.${confirm}`, { email: user.email }) : ''}
        confirmLabel={confirm ? t(`admin.users.confirm.${confirm}Ok`) : ''}
        pending={save.isPending || reset.isPending}
        onConfirm={() => {
          if (confirm === 'reset') {
            reset.mutate();
          } else if (confirm) {
            save.mutate({ isActive: confirm === 'reactivate' });
          }
        }}
        onClose={() => setConfirm(null)}
      />
    </AdminModal>
  );
}
