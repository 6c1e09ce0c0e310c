import { ActionIcon, Avatar, Indicator, Menu, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveLanguage } from '../../api/user';
import { updateSessionUser, useSession } from '../../app/session';
import { type Language, SUPPORTED_LANGUAGES } from '../../constants';
import { applyLanguage, followBrowserLanguage } from '../../i18n';
import { consentState, recordConsent } from '../../lib/consent';
import { ChangePasswordDialog } from './ChangePasswordDialog';

function initials(name: string): string {
  return name
    .split(/[\s@._-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

/**
 * Account menu of the page header: own password, language (saved to the user) and statistics
 * consent. A temporary password is only pointed out (a dot, a note): nothing pops up by itself.
 */
export function AccountMenu() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [statistics, setStatistics] = useState(() => consentState(document.cookie) === 'granted');
  const [passwordOpen, setPasswordOpen] = useState(false);
  if (!user) {
    return null;
  }
  // The saved choice; null: none, the app follows the browser.
  const chosen = user.language ?? null;
  const switchLanguage = (language: Language | null) => {
    void (language === null ? followBrowserLanguage() : applyLanguage(language));
    saveLanguage({ language })
      .then(updateSessionUser)
      .catch(() => notifications.show({ color: 'red', message: t('user.languageFailed') }));
  };
  const label = user.displayName || user.email;
  const temporary = user.passwordTemporary === true;
  const avatar = (
    <Avatar color="brand" radius="xl" size="md">
      {initials(label)}
    </Avatar>
  );

  return (
    <>
      {/* Without Mantine's focus placeholder: a focusable element without a role inside the
          menu, which screen readers cannot reach (axe: aria-required-children). */}
      <Menu
        position="bottom-end"
        shadow="md"
        width={260}
        closeOnItemClick={false}
        withInitialFocusPlaceholder={false}
      >
        <Menu.Target>
          <ActionIcon
            variant="subtle"
            size="xl"
            radius="xl"
            aria-label={t(temporary ? 'user.password.temporaryAccount' : 'user.account')}
            data-testid="account-menu"
            data-password-temporary={temporary}
          >
            {temporary ? (
              <Indicator
                color="orange"
                size={11}
                offset={4}
                withBorder
                data-testid="password-temporary-indicator"
              >
                {avatar}
              </Indicator>
            ) : (
              avatar
            )}
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown data-testid="account-menu-dropdown">
          <Menu.Label>{label}</Menu.Label>
          {temporary && (
            <Text size="xs" px="sm" pb={4} data-testid="password-temporary-note">
              {t('user.password.temporary')}
            </Text>
          )}
          <Menu.Item
            leftSection={<IconKey size={14} />}
            closeMenuOnClick
            onClick={() => setPasswordOpen(true)}
            data-testid="change-password"
          >
            {t('user.password.change')}
          </Menu.Item>
          <Menu.Divider />
          <Menu.Label>{t('user.language')}</Menu.Label>
          {SUPPORTED_LANGUAGES.map((language) => (
            <Menu.Item
              key={language}
              onClick={() => switchLanguage(language)}
              rightSection={chosen === language ? <IconCheck size={14} /> : null}
              data-testid={`language-${language}`}
            >
              {t(`language.${language}`)}
            </Menu.Item>
          ))}
          <Menu.Item
            onClick={() => switchLanguage(null)}
            rightSection={chosen === null ? <IconCheck size={14} /> : null}
            data-testid="language-browser"
          >
            {t('language.browser')}
          </Menu.Item>
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
      <ChangePasswordDialog opened={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </>
  );
}
