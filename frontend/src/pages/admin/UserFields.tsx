import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Organization } from '../../api/adminTypes';
import { ROLES, type Role } from '../../api/types';
import { SUPPORTED_LANGUAGES } from '../../constants';

/** Roles that belong to one organization (the others see several or all). */
export const ORGANIZATION_ROLES: readonly Role[] = ['customer', 'service'];

/** Role, organization (for the roles that have one) and language: shared by both dialogs. */
export function UserFields({
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
