import { Autocomplete, Badge, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listAudit } from '../../api/admin';
import type { AuditEntry } from '../../api/adminTypes';
import { initialListState, listReducer, pagerOf } from '../../components/tables/listState';
import { type PagedColumn, PagedTable } from '../../components/tables/PagedTable';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES, codeOrNameFilter, typedCode } from './auditCodes';
import { auditDiff, changedLines, type DiffKind } from './auditDiff';
import { AdminHeader, useDateTime } from './common';
import { localInputToIso, TimeRangeInputs } from './timeRange';

interface AuditFilters {
  from: string;
  to: string;
}

const reduceAudit = listReducer<AuditFilters>('-at');

const KIND_COLOR: Record<DiffKind, string> = {
  added: 'green',
  removed: 'red',
  changed: 'orange',
  unchanged: 'gray',
};

/**
 * Mantine's badge hides its overflow (root and label) to end a long text with "…"; in this
 * auto-sized table that let the column shrink below the word, so "removed" read "RE…". The
 * kind is all the badge says: it keeps the width of its whole text, in every language.
 */
const KIND_BADGE_STYLES = {
  root: { overflow: 'visible', minWidth: 'max-content' },
  label: { overflow: 'visible', textOverflow: 'clip' },
} as const;

/** Before and after of one entry: the fields that changed, old value struck through. */
export function AuditDiffView({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const dateTime = useDateTime();
  const lines = changedLines(auditDiff(entry.before, entry.after, dateTime));
  if (lines.length === 0) {
    return (
      <Text size="xs" c="dimmed">
        {t('admin.audit.noChanges')}
      </Text>
    );
  }
  return (
    <Table
      withRowBorders={false}
      verticalSpacing={2}
      horizontalSpacing="xs"
      fz="xs"
      data-testid="audit-diff"
    >
      <Table.Tbody>
        {lines.map((line) => (
          <Table.Tr key={line.path} data-kind={line.kind}>
            <Table.Td ff="monospace" fw={600} style={{ verticalAlign: 'top' }}>
              {line.path}
            </Table.Td>
            <Table.Td style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {line.before !== null && (
                <Text
                  component="del"
                  size="xs"
                  c="red"
                  ff="monospace"
                  aria-label={t('admin.audit.before')}
                >
                  {line.before}
                </Text>
              )}
              {line.before !== null && line.after !== null && ' → '}
              {line.after !== null && (
                <Text
                  component="ins"
                  size="xs"
                  c="green"
                  ff="monospace"
                  style={{ textDecoration: 'none' }}
                  aria-label={t('admin.audit.after')}
                >
                  {line.after}
                </Text>
              )}
            </Table.Td>
            <Table.Td style={{ verticalAlign: 'top', width: '1%', whiteSpace: 'nowrap' }}>
              <Badge
                size="xs"
                variant="light"
                color={KIND_COLOR[line.kind]}
                styles={KIND_BADGE_STYLES}
                data-testid="audit-diff-kind"
              >
                {t(`admin.audit.kind.${line.kind}`)}
              </Badge>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** A filter by code (an action, an entity type): typed or chosen from the codes, each shown
 * with its name; a typed name counts as its code (``typedCode``). */
function CodeFilter(props: {
  label: string;
  placeholder: string;
  codes: string[];
  name: (code: string) => string;
  value: string;
  onChange: (value: string) => void;
  width: number;
  testId: string;
}) {
  return (
    <Autocomplete
      label={props.label}
      placeholder={props.placeholder}
      data={props.codes}
      filter={codeOrNameFilter(props.name)}
      renderOption={({ option }) => (
        <Stack gap={0}>
          <Text size="sm">{props.name(option.value)}</Text>
          <Text size="xs" c="dimmed" ff="monospace">
            {option.value}
          </Text>
        </Stack>
      )}
      value={props.value}
      onChange={props.onChange}
      clearable
      w={props.width}
      data-testid={props.testId}
    />
  );
}

/** Audit log: every change made here or on the command line, newest first, filterable. */
export function AuditPage() {
  const { t } = useTranslation();
  const dateTime = useDateTime();
  const [list, dispatch] = useReducer(
    reduceAudit,
    initialListState<AuditFilters>({ from: '', to: '' }),
  );
  const [action, setAction] = useState('');
  const [entityType, setEntityType] = useState('');
  const [actor, setActor] = useState('');
  const [typed] = useDebouncedValue({ action, entityType, actor }, 300);
  const actionName = (code: string) => t(`admin.audit.actions.${code}`, { defaultValue: code });
  const entityName = (code: string) => t(`admin.audit.entities.${code}`, { defaultValue: code });
  const audit = useQuery({
    queryKey: ['admin', 'audit', list, typed],
    queryFn: () =>
      listAudit({
        page: list.page,
        pageSize: list.pageSize,
        action: typedCode(typed.action, AUDIT_ACTIONS, actionName) || undefined,
        entityType: typedCode(typed.entityType, AUDIT_ENTITY_TYPES, entityName) || undefined,
        actor: typed.actor.trim() || undefined,
        from: localInputToIso(list.filters.from),
        to: localInputToIso(list.filters.to),
      }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const { from, to } = list.filters;
  const filtered = Boolean(
    typed.action.trim() || typed.entityType.trim() || typed.actor.trim() || from || to,
  );
  const typedFilter = (setter: (value: string) => void) => (value: string) => {
    setter(value);
    dispatch({ type: 'filter', filters: {} });
  };

  const columns: PagedColumn<AuditEntry>[] = [
    { key: 'at', label: t('admin.audit.at'), render: (entry) => dateTime(entry.at) },
    {
      key: 'actor',
      label: t('admin.audit.actor'),
      render: (entry) => (
        <Stack gap={0}>
          <Text size="sm">{entry.actor}</Text>
          <Text size="xs" c="dimmed">
            {t(`admin.audit.via.${entry.via}`)}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'action',
      label: t('admin.audit.action'),
      render: (entry) => (
        <Stack gap={0}>
          <Text size="sm" data-testid="audit-action">
            {actionName(entry.action)}
          </Text>
          <Text size="xs" c="dimmed">
            {entityName(entry.entityType)}
            {entry.entityId ? ` #${entry.entityId}` : ''}
            {' · '}
            {/* The code the action filter takes. */}
            <Text span inherit ff="monospace">
              {entry.action}
            </Text>
          </Text>
        </Stack>
      ),
    },
    {
      key: 'diff',
      label: t('admin.audit.changes'),
      render: (entry) => (
        <div style={{ minWidth: 320, maxWidth: 640, whiteSpace: 'normal' }}>
          <AuditDiffView entry={entry} />
        </div>
      ),
    },
  ];

  return (
    <section data-testid="page-admin-audit">
      <AdminHeader title={t('admin.menu.audit')} description={t('admin.audit.description')} />
      <Stack gap="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <CodeFilter
            label={t('admin.audit.action')}
            placeholder={t('admin.audit.allActions')}
            codes={AUDIT_ACTIONS}
            name={actionName}
            value={action}
            onChange={typedFilter(setAction)}
            width={240}
            testId="audit-filter-action"
          />
          <CodeFilter
            label={t('admin.audit.entityType')}
            placeholder={t('admin.audit.allEntityTypes')}
            codes={AUDIT_ENTITY_TYPES}
            name={entityName}
            value={entityType}
            onChange={typedFilter(setEntityType)}
            width={200}
            testId="audit-filter-entity"
          />
          <TextInput
            label={t('admin.audit.actor')}
            value={actor}
            onChange={(event) => typedFilter(setActor)(event.currentTarget.value)}
            w={240}
            data-testid="audit-filter-actor"
          />
          <TimeRangeInputs
            from={list.filters.from}
            to={list.filters.to}
            onChange={(range) => dispatch({ type: 'filter', filters: range })}
          />
        </Group>
        <PagedTable
          testId="audit-table"
          columns={columns}
          rows={audit.data?.items}
          rowKey={(entry) => String(entry.id)}
          rowTestId={(entry) => `audit-row-${entry.action}`}
          pager={pagerOf(list, audit.data, dispatch)}
          isPending={audit.isPending}
          error={audit.error}
          onRetry={() => void audit.refetch()}
          empty={
            <Text size="sm" c="dimmed" data-testid="audit-empty">
              {filtered ? t('admin.audit.none') : t('admin.audit.noneYet')}
            </Text>
          }
        />
      </Stack>
    </section>
  );
}
