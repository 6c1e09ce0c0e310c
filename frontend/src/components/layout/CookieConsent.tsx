import { Button, Group, Paper, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consentState, recordConsent } from '../../lib/consent';

/** Small consent banner for the statistics cookie; shown until answered. */
export function CookieConsent() {
  const { t } = useTranslation();
  const [answered, setAnswered] = useState(() => consentState(document.cookie) !== 'unanswered');
  if (answered) {
    return null;
  }
  const answer = (granted: boolean) => {
    recordConsent(granted);
    setAnswered(true);
  };
  return (
    <Paper
      shadow="lg"
      withBorder
      radius="md"
      p="md"
      maw={420}
      style={{
        position: 'fixed',
        left: 16,
        right: 16,
        bottom: 16,
        marginLeft: 'auto',
        zIndex: 150,
      }}
      role="dialog"
      aria-label={t('consent.setting')}
      data-testid="consent-banner"
    >
      <Text size="sm" mb="sm">
        {t('consent.text')}
      </Text>
      <Group justify="flex-end" gap="xs">
        <Button
          variant="default"
          size="xs"
          onClick={() => answer(false)}
          data-testid="consent-decline"
        >
          {t('consent.decline')}
        </Button>
        <Button size="xs" onClick={() => answer(true)} data-testid="consent-accept">
          {t('consent.accept')}
        </Button>
      </Group>
    </Paper>
  );
}
