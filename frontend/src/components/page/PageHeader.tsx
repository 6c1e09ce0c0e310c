import { Group, Title } from '@mantine/core';
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

/**
 * Title of the page and the account menu, the saved selectors below them across the whole
 * width (beside the menu they wrapped to a second line on a 1,440 px laptop).
 */
export function PageHeader({ topic, beta = false, vehiclesOnly = false }: PageHeaderProps) {
  const { t } = useTranslation();
  return (
    <header className="fs-header" data-testid="page-header">
      <Group gap="sm" className="fs-header-main">
        <Title order={1} size="h2" data-testid="page-title">
          {t(`pages.${topic}.title`)}
        </Title>
        {beta && <BetaBadge testId="page-beta" />}
      </Group>
      <Group gap="xs" wrap="nowrap" align="flex-start" className="fs-header-actions">
        <RefreshControl />
        <AccountMenu />
      </Group>
      <FilterBar vehiclesOnly={vehiclesOnly} />
    </header>
  );
}
