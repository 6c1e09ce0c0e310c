import { Group, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PageTopic } from '../../app/pages';
import { FilterBar } from '../filters/FilterBar';
import { AccountMenu } from '../layout/AccountMenu';
import { BetaBadge } from '../layout/BetaBadge';
import { RefreshControl } from '../refresh/RefreshControl';

interface PageHeaderProps {
  topic: PageTopic;
  beta?: boolean;
  /** Only the machine selector (live pages, where a period does nothing). */
  vehiclesOnly?: boolean;
}

/** Title of the page, the saved selectors and the account menu. */
export function PageHeader({ topic, beta = false, vehiclesOnly = false }: PageHeaderProps) {
  const { t } = useTranslation();
  return (
    <header className="fs-header" data-testid="page-header">
      <Stack gap="sm" className="fs-header-main">
        <Group gap="sm">
          <Title order={1} size="h2" data-testid="page-title">
            {t(`pages.${topic}.title`)}
          </Title>
          {beta && <BetaBadge testId="page-beta" />}
        </Group>
        <FilterBar vehiclesOnly={vehiclesOnly} />
      </Stack>
      <Group gap="xs" wrap="nowrap" align="flex-start" className="fs-header-actions">
        <RefreshControl />
        <AccountMenu />
      </Group>
    </header>
  );
}
