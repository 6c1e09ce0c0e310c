import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDatabaseOff, IconTruckOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface EmptyStateProps {
  kind: 'noVehicles' | 'noData';
  children?: ReactNode;
}

/** An honest empty state: says why there is nothing to show. */
export function EmptyState({ kind, children }: EmptyStateProps) {
  const { t } = useTranslation();
  const Icon = kind === 'noVehicles' ? IconTruckOff : IconDatabaseOff;
  const testId = kind === 'noVehicles' ? 'no-vehicles' : 'no-data';
  return (
    <Paper withBorder radius="lg" p="xl" data-testid={testId}>
      <Stack align="center" gap="sm" maw={640} mx="auto" ta="center">
        <ThemeIcon size={56} radius="xl" variant="light">
          <Icon size={30} stroke={1.5} />
        </ThemeIcon>
        <Title order={3}>
          {t(kind === 'noVehicles' ? 'state.noVehiclesTitle' : 'state.noDataTitle')}
        </Title>
        <Text c="dimmed">
          {t(kind === 'noVehicles' ? 'state.noVehiclesBody' : 'state.noDataBody')}
        </Text>
        {children}
      </Stack>
    </Paper>
  );
}
