import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function BetaBadge({ testId }: { testId?: string }) {
  const { t } = useTranslation();
  return (
    <Badge size="xs" variant="light" color="orange" data-testid={testId}>
      {t('menu.beta')}
    </Badge>
  );
}
