import { ActionIcon, Group, Paper, Stack, Title } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * The frame of a list opened by a drill-down below a page's charts: its title, a close
 * button (`closeLabel` names what it closes) and the list. Test ids `drilldown-title`,
 * `drilldown-close`; `testId` and `data` (as `data-*` attributes) name the panel.
 */
export function DrilldownPanel({
  testId,
  data,
  title,
  closeLabel,
  onClose,
  children,
}: {
  testId: string;
  data: Record<string, string>;
  title: string;
  closeLabel: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const attributes = Object.fromEntries(
    Object.entries(data).map(([name, value]) => [`data-${name}`, value]),
  );
  return (
    <Paper withBorder radius="lg" p="md" data-testid={testId} {...attributes}>
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} size="h4" data-testid="drilldown-title">
            {title}
          </Title>
          <ActionIcon
            variant="subtle"
            aria-label={closeLabel}
            onClick={onClose}
            data-testid="drilldown-close"
          >
            <IconX size={18} />
          </ActionIcon>
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
