import { Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useRouteError } from 'react-router';
import { classifyNavigationFailure } from '../../api/errors';
import { reportError } from '../../app/errorStore';
import { getSession } from '../../app/session';

/**
 * A route that failed to load or render. Chunk failures while online and failures while
 * offline go to the error overlay (spec section 8); the page itself offers a way on.
 */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();

  useEffect(() => {
    const classified = classifyNavigationFailure({
      error,
      online: navigator.onLine,
      url: window.location.href,
      user: getSession().user?.email ?? null,
    });
    if (classified) {
      reportError(classified);
    }
  }, [error]);

  return (
    <Center mih="60vh" p="md" data-testid="route-error">
      <Paper withBorder radius="lg" p="xl" maw={520}>
        <Stack gap="sm">
          <Title order={3}>{t('routeError.title')}</Title>
          <Text c="dimmed">{t('routeError.body')}</Text>
          <Group>
            <Button onClick={() => window.location.reload()}>{t('routeError.reload')}</Button>
            <Button component={Link} to="/dashboards" variant="default">
              {t('routeError.home')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}
