import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const COLORS: Record<string, string> = { finished: 'green', failed: 'red', cancelled: 'gray' };

export function OutcomeBadge({ outcome }: { outcome: string }) {
  const { t } = useTranslation();
  return (
    <Badge
      variant="light"
      color={COLORS[outcome] ?? 'gray'}
      data-testid="outcome-badge"
      data-outcome={outcome}
    >
      {COLORS[outcome] ? t(`processes.outcome.${outcome}`) : outcome}
    </Badge>
  );
}
