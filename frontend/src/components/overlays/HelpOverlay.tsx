import { Button, CloseButton, Divider, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type AdminPageId, adminPageForPath } from '../../app/menu';
import { PAGES, pageForPath } from '../../app/pages';

interface HelpOverlayProps {
  opened: boolean;
  onClose: () => void;
  pathname: string;
}

/** Help for the current page: what it shows and the KPI definitions that apply to it. */
export function HelpOverlay({ opened, onClose, pathname }: HelpOverlayProps) {
  const { t } = useTranslation();
  const adminPage = adminPageForPath(pathname);
  if (adminPage) {
    return <AdminHelpOverlay opened={opened} onClose={onClose} page={adminPage} />;
  }
  const page = pageForPath(pathname) ?? PAGES[0];
  if (!page) {
    return null;
  }
  const title = t(`pages.${page.topic}.title`);
  return (
    <HelpFrame
      opened={opened}
      onClose={onClose}
      topic={page.topic}
      title={t('help.title', { page: title })}
    >
      <div>
        <Text fw={600} mb={4}>
          {t('help.whatItShows')}
        </Text>
        <Text size="sm">{t(`pages.${page.topic}.summary`)}</Text>
      </div>
      <div>
        <Text fw={600} mb={4}>
          {t('help.filters')}
        </Text>
        <Text size="sm">{t('help.filtersText')}</Text>
      </div>
      <Divider />
      <div>
        <Text fw={600} mb="xs">
          {t('help.definitions')}
        </Text>
        <Stack gap="xs" component="dl" m={0} data-testid="help-kpis">
          {page.kpis.map((kpi) => (
            <div key={kpi} data-testid={`help-kpi-${kpi}`}>
              <Text component="dt" size="sm" fw={600}>
                {t(`kpi.${kpi}.name`)}
              </Text>
              <Text component="dd" size="sm" c="dimmed" m={0}>
                {t(`kpi.${kpi}.definition`)}
              </Text>
            </div>
          ))}
        </Stack>
      </div>
    </HelpFrame>
  );
}

/** Help for a page of the Administration app: what it shows and how its tasks are done. */
function AdminHelpOverlay({
  opened,
  onClose,
  page,
}: {
  opened: boolean;
  onClose: () => void;
  page: AdminPageId;
}) {
  const { t } = useTranslation();
  const steps = t(`admin.help.${page}.steps`, { returnObjects: true });
  return (
    <HelpFrame
      opened={opened}
      onClose={onClose}
      topic={`admin-${page}`}
      title={t('help.title', { page: t(`admin.menu.${page}`) })}
    >
      <div>
        <Text fw={600} mb={4}>
          {t('help.whatItShows')}
        </Text>
        <Text size="sm">{t(`admin.help.${page}.summary`)}</Text>
      </div>
      <Divider />
      <div>
        <Text fw={600} mb="xs">
          {t('admin.help.howTo')}
        </Text>
        <Stack gap="xs" component="ul" m={0} pl="md" data-testid="help-admin-steps">
          {(Array.isArray(steps) ? (steps as string[]) : []).map((step) => (
            <Text component="li" size="sm" key={step}>
              {step}
            </Text>
          ))}
        </Stack>
      </div>
    </HelpFrame>
  );
}

/**
 * The overlay around either help: its title with a close button beside it (the text can be
 * long, on a phone several screens) and the close button at its end.
 */
function HelpFrame({
  opened,
  onClose,
  topic,
  title,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  topic: string;
  title: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} withCloseButton={false} size="lg" centered>
      <Stack gap="md" data-testid="help-overlay" data-help-topic={topic}>
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          {/* The modal's own title element: it names the dialog (aria-labelledby). */}
          <Modal.Title data-testid="help-title" fz="h3" lh="h3" fw={650}>
            {title}
          </Modal.Title>
          <CloseButton
            onClick={onClose}
            aria-label={t('help.close')}
            data-testid="help-close-top"
          />
        </Group>
        {children}
        <Group justify="flex-end">
          <Button onClick={onClose} data-testid="help-close">
            {t('help.close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
