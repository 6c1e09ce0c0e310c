import { type MantineSpacing, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatShare } from '../../lib/format';
import { type PeriodCoverage, partlyRecorded } from './kpiTexts';

/** A share as a whole percent; under 1 % as "< 1 %", never a misleading "0 %". */
function wholePercent(share: number, language: string): string {
  return share < 0.01 && share > 0
    ? `< ${formatShare(0.01, language, { digits: 0 })}`
    : formatShare(share, language, { digits: 0 });
}

/**
 * Says that the previous period was recorded for much less of its vehicle time than the
 * current one (`partlyRecorded`), so that "+396 against 0" is read for what it is.
 */
export function PartlyRecordedNote({
  current,
  previous,
  mb,
}: {
  current: PeriodCoverage;
  previous: PeriodCoverage | null | undefined;
  mb?: MantineSpacing;
}) {
  const { t, i18n } = useTranslation();
  const shares = partlyRecorded(current, previous);
  if (!shares) {
    return null;
  }
  return (
    <Text size="sm" c="dimmed" mb={mb} data-testid="partly-recorded-note">
      {t('charts.partlyRecorded', {
        previous: wholePercent(shares.previous, i18n.language),
        current: wholePercent(shares.current, i18n.language),
      })}
    </Text>
  );
}
