import { Select } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Organization } from '../../api/adminTypes';
import { ROLES, type Role } from '../../api/types';
import { type Language, SUPPORTED_LANGUAGES } from '../../constants';
import { normalizeLanguage } from '../../i18n';

/** Roles that belong to one organization: the customer. A partner sees the organizations
 * linked to it; support and service see all (the server's `appstore.users` rule). */
const ORGANIZATION_ROLES: readonly Role[] = ['customer'];
/** The language select's value for "none chosen: the browser's". */
const BROWSER = 'browser';

export interface UserFieldState {
  role: Role;
  organizationId: string | null;
  /** Null: none chosen, the app follows the user's browser. */
  language: Language | null;
  setRole: (role: Role) => void;
  setOrganizationId: (id: string | null) => void;
  setLanguage: (language: Language | null) => void;
  /** Whether the role belongs to one organization. */
  needsOrganization: boolean;
  /** The organization to save: none for the roles without one. */
  organization: number | null;
  /** False while a role that needs an organization has none chosen. */
  complete: boolean;
}

/** The state of `UserFields`, starting from `initial`. */
export function useUserFields(initial: {
  role: Role;
  organizationId: number | null;
  language: Language | null;
}): UserFieldState {
  const [role, setRole] = useState<Role>(initial.role);
  const [organizationId, setOrganizationId] = useState<string | null>(
    initial.organizationId == null ? null : String(initial.organizationId),
  );
  const [language, setLanguage] = useState(initial.language);
  const needsOrganization = ORGANIZATION_ROLES.includes(role);
  return {
    role,
    organizationId,
    language,
    setRole,
    setOrganizationId,
    setLanguage,
    needsOrganization,
    organization: needsOrganization && organizationId ? Number(organizationId) : null,
    complete: !needsOrganization || organizationId !== null,
  };
}

/** Role, organization (for the roles that have one) and language: shared by both dialogs. */
export function UserFields({
  fields,
  organizations,
}: {
  fields: UserFieldState;
  organizations: Organization[];
}) {
  const { t } = useTranslation();
  const { role, organizationId, language, needsOrganization } = fields;
  return (
    <>
      <Select
        label={t('admin.users.role')}
        data={ROLES.map((value) => ({ value, label: t(`admin.roles.${value}`) }))}
        value={role}
        onChange={(value) => value && fields.setRole(value as Role)}
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
        onChange={fields.setOrganizationId}
        disabled={!needsOrganization}
        required={needsOrganization}
        searchable
        data-testid="user-organization"
      />
      <Select
        label={t('admin.users.language')}
        data={[
          { value: BROWSER, label: t('language.browser') },
          ...SUPPORTED_LANGUAGES.map((value) => ({ value, label: t(`language.${value}`) })),
        ]}
        value={language ?? BROWSER}
        onChange={(value) =>
          value && fields.setLanguage(value === BROWSER ? null : normalizeLanguage(value))
        }
        allowDeselect={false}
        data-testid="user-language"
      />
    </>
  );
}
