import { Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function StartupScreen() {
  const { t } = useTranslation();
  return (
    <Center h="100vh" data-testid="startup">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed" size="sm">
          {t('app.loading')}
        </Text>
      </Stack>
    </Center>
  );
}
