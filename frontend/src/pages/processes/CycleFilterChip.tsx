import { useTranslation } from 'react-i18next';
import { FilterChip } from '../../components/filters/FilterChip';
import { cellText } from '../../components/tables/cellText';

/**
 * The order list's cycle-time filter (a histogram bar's drill-down): the bucket's edges
 * (`edges`: each bucket's lower edge in seconds, the last open above), and a way out.
 */
export function CycleFilterChip({
  edges,
  bucket,
  onClear,
  testId = 'drilldown-cycle-filter',
}: {
  edges: readonly number[];
  bucket: number;
  onClear: () => void;
  testId?: string;
}) {
  const { t, i18n } = useTranslation();
  const duration = (seconds: number | undefined) =>
    cellText(seconds ?? null, 'duration', i18n.language);
  const upper = edges[bucket + 1];
  const label =
    upper === undefined
      ? t('processes.cycleFilterOpen', { from: duration(edges[bucket]) })
      : t('processes.cycleFilter', { from: duration(edges[bucket]), to: duration(upper) });
  return (
    <FilterChip
      label={label}
      clearLabel={t('processes.clearCycleFilter')}
      testId={testId}
      onClear={onClear}
    />
  );
}
