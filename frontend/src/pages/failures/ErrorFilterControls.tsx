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
  return (
    <Group gap="xs" wrap="wrap" data-testid="error-filters">
      <Select
        size="xs"
        w={{ base: '100%', xs: 220 }}
        label={t('failures.errorType')}
        placeholder={t('failures.allTypes')}
        data={errorTypes}
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
