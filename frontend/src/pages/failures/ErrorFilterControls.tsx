import { Group, MultiSelect, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ERROR_LEVELS, type ErrorFilter } from '../../api/analytics-failures';

/**
 * Error type and level filters (server-side: the calls take `errorType` and `level`, the
 * latter once per level chosen: any of them).
 */
export function ErrorFilterControls({
  filter,
  errorTypes,
  onChange,
}: {
  filter: ErrorFilter;
  errorTypes: string[];
  onChange: (filter: Partial<ErrorFilter>) => void;
}) {
  const { t } = useTranslation();
  // A type a link names that the period does not hold (the list is then empty) is shown
  // too, so the user sees what filters the list and can clear it.
  const { errorType } = filter;
  const types =
    errorType && !errorTypes.includes(errorType) ? [errorType, ...errorTypes] : errorTypes;
  return (
    <Group gap="xs" wrap="wrap" data-testid="error-filters">
      <Select
        size="xs"
        w={{ base: '100%', xs: 220 }}
        label={t('failures.errorType')}
        placeholder={t('failures.allTypes')}
        data={types}
        value={filter.errorType}
        onChange={(value) => onChange({ errorType: value })}
        searchable
        clearable
        data-testid="filter-error-type"
      />
      <MultiSelect
        size="xs"
        w={{ base: '100%', xs: 240 }}
        label={t('failures.levelLabel')}
        placeholder={filter.levels.length ? undefined : t('failures.allLevels')}
        data={ERROR_LEVELS.map((level) => ({ value: level, label: t(`failures.level.${level}`) }))}
        value={[...filter.levels]}
        onChange={(values) =>
          onChange({ levels: ERROR_LEVELS.filter((level) => values.includes(level)) })
        }
        clearable
        data-testid="filter-level"
      />
    </Group>
  );
}
