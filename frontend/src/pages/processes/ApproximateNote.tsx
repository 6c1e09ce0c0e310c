import { type MantineSpacing, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Explains the "≈" of percentiles from histograms; shown only when some value carries it. */
export function ApproximateNote({ shown, mb }: { shown: boolean; mb?: MantineSpacing }) {
  const { t } = useTranslation();
  if (!shown) {
    return null;
  }
  return (
    <Text size="xs" c="dimmed" mb={mb} data-testid="approximate-note">
      ≈ {t('processes.approximateNote')}
    </Text>
  );
}
