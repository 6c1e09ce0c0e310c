import { Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorHeaderKey } from '../../api/errors';
import { clearError, useCurrentError } from '../../app/errorStore';

function Detail({ label, value, testId }: { label: string; value: string | null; testId: string }) {
  if (!value) {
    return null;
  }
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Code block data-testid={testId} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {value}
      </Code>
    </div>
  );
}

/** Error overlay (spec sections 2 and 8): header for the type, details, a close button. */
export function ErrorOverlay() {
  const { t } = useTranslation();
  const error = useCurrentError();
  const type = error?.type ?? 'UNKNOWN';
  const needsReload = type === 'CHUNK' || type === 'UNKNOWN';

  return (
    <Modal
      opened={error !== null}
      onClose={clearError}
      withCloseButton={false}
      centered
      size="lg"
      zIndex={400}
      // The header as the dialog's title: it names the dialog for screen readers.
      title={
        <Group gap="sm" wrap="nowrap">
          <IconAlertTriangle color="var(--mantine-color-red-6)" size={28} aria-hidden />
          <Text fw={700} size="lg" data-testid="error-overlay-header">
            {t(errorHeaderKey(type))}
          </Text>
        </Group>
      }
    >
      <Stack gap="md" data-testid="error-overlay" data-error-type={type}>
        <Text size="sm">{t(`${type.toLowerCase()}.description`)}</Text>
        <Detail
          label={t('errorOverlay.message')}
          value={error?.message ?? null}
          testId="error-overlay-message"
        />
        <Detail
          label={t('errorOverlay.url')}
          value={error?.url ?? null}
          testId="error-overlay-url"
        />
        <Detail
          label={t('errorOverlay.body')}
          value={error?.body ?? null}
          testId="error-overlay-body"
        />
        <Detail
          label={t('errorOverlay.user')}
          value={error?.user ?? null}
          testId="error-overlay-user"
        />
        <Group justify="flex-end">
          {needsReload && (
            <Button
              variant="default"
              onClick={() => window.location.reload()}
              data-testid="error-overlay-reload"
            >
              {t('errorOverlay.reload')}
            </Button>
          )}
          <Button onClick={clearError} data-testid="error-overlay-close">
            {t('errorOverlay.close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
