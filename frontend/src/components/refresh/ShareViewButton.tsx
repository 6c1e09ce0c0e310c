import { ActionIcon, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useAnalysisFilterControls } from '../filters/filtersContext';

/**
 * Puts the page's view (period, vehicles, shift, combined) into the address and copies the
 * link, so a colleague who opens it sees the same view.
 */
export function ShareViewButton() {
  const { t } = useTranslation();
  const location = useLocation();
  const { showViewInAddress } = useAnalysisFilterControls();
  const share = () => {
    const search = showViewInAddress();
    const link = `${window.location.origin}${window.location.pathname}#${location.pathname}${search}`;
    const copied =
      navigator.clipboard?.writeText(link) ?? Promise.reject(new Error('no clipboard'));
    copied
      .then(() => notifications.show({ message: t('refresh.linkCopied') }))
      // Without clipboard access the address bar holds the link.
      .catch(() => notifications.show({ message: t('refresh.linkInAddress') }));
  };
  return (
    <Tooltip label={t('refresh.shareLink')}>
      <ActionIcon
        variant="default"
        size="lg"
        onClick={share}
        aria-label={t('refresh.shareLink')}
        data-testid="share-view"
      >
        <IconLink size={18} />
      </ActionIcon>
    </Tooltip>
  );
}
