import { ActionIcon, Avatar, Menu, Switch } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveLanguage } from '../../api/user';
import { updateSessionUser, useSession } from '../../app/session';
import { type Language, SUPPORTED_LANGUAGES } from '../../constants';
import { applyLanguage, normalizeLanguage } from '../../i18n';
import { consentState, recordConsent } from '../../lib/consent';

function initials(name: string): string {
  return name
    .split(/[\s@._-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

/** Account menu of the page header: language (saved to the user) and statistics consent. */
export function AccountMenu() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [statistics, setStatistics] = useState(() => consentState(document.cookie) === 'granted');
  if (!user) {
    return null;
  }
  const current = normalizeLanguage(i18n.language);
  const switchLanguage = (language: Language) => {
    void applyLanguage(language);
    saveLanguage({ language })
      .then(updateSessionUser)
      .catch(() => notifications.show({ color: 'red', message: t('user.languageFailed') }));
  };
  const label = user.displayName || user.email;

  return (
    <Menu position="bottom-end" shadow="md" width={260} closeOnItemClick={false}>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          size="xl"
          radius="xl"
          aria-label={t('user.account')}
          data-testid="account-menu"
        >
          <Avatar color="brand" radius="xl" size="md">
            {initials(label)}
          </Avatar>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown data-testid="account-menu-dropdown">
        <Menu.Label>{label}</Menu.Label>
        <Menu.Divider />
        <Menu.Label>{t('user.language')}</Menu.Label>
        {SUPPORTED_LANGUAGES.map((language) => (
          <Menu.Item
            key={language}
            onClick={() => switchLanguage(language)}
            rightSection={current === language ? <IconCheck size={14} /> : null}
            data-testid={`language-${language}`}
          >
            {t(`language.${language}`)}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Label>{t('user.privacy')}</Menu.Label>
        <Menu.Item component="div">
          <Switch
            size="sm"
            label={t('consent.setting')}
            checked={statistics}
            onChange={(event) => {
              const granted = event.currentTarget.checked;
              recordConsent(granted);
              setStatistics(granted);
            }}
            data-testid="statistics-toggle"
          />
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
