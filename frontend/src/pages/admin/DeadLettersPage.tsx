import { ActionIcon, Group, Select, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconEye, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deadLetterPayloadUrl, deleteDeadLetter, listDeadLetters } from '../../api/admin';
import type { DeadLetter } from '../../api/adminTypes';
import { initialListState, listReducer, pagerOf } from '../../components/tables/listState';
import { type PagedColumn, PagedTable } from '../../components/tables/PagedTable';
import { formatNumber } from '../../lib/format';
import { AdminHeader, ConfirmDialog, notifyFailure, notifySuccess, useDateTime } from './common';
import { PayloadDialog } from './DeadLetterPayloadDialog';
import { localInputToIso, TimeRangeInputs } from './timeRange';

interface DeadLetterFilters {
  source: string | null;
  category: string | null;
  from: string;
  to: string;
}

const reduceLetters = listReducer<DeadLetterFilters>('-receivedAt');

/** Dead letters: paged, filtered by reason, source and time; view, download, delete, re-ingest. */
export function DeadLettersPage() {
  const { t, i18n } = useTranslation();
  const dateTime = useDateTime();
  const client = useQueryClient();
  const [list, dispatch] = useReducer(
    reduceLetters,
    initialListState<DeadLetterFilters>({ source: null, category: null, from: '', to: '' }),
  );
  const [reason, setReason] = useState('');
  const [debouncedReason] = useDebouncedValue(reason.trim(), 300);
  const letters = useQuery({
    queryKey: ['admin', 'deadLetters', list, debouncedReason],
    queryFn: () =>
      listDeadLetters({
        page: list.page,
        pageSize: list.pageSize,
        source: list.filters.source ?? undefined,
        category: list.filters.category ?? undefined,
        reason: debouncedReason || undefined,
        receivedFrom: localInputToIso(list.filters.from),
        receivedTo: localInputToIso(list.filters.to),
      }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const [viewing, setViewing] = useState<DeadLetter | null>(null);
  const [deleting, setDeleting] = useState<DeadLetter | null>(null);
  const remove = useMutation({
    mutationFn: (letter: DeadLetter) => deleteDeadLetter(letter.id),
    onSuccess: () => {
      notifySuccess(t('admin.deadLetters.deleted'));
      setDeleting(null);
      void client.invalidateQueries({ queryKey: ['admin', 'deadLetters'] });
    },
    onError: (failure) => {
      setDeleting(null);
      notifyFailure(failure);
    },
  });
  const { source, category, from, to } = list.filters;
  const filtered = Boolean(debouncedReason || source || category || from || to);
  const sources = [...new Set((letters.data?.bySource ?? []).map((entry) => entry.source))];
  const categories = [...new Set((letters.data?.bySource ?? []).map((entry) => entry.category))];
  const number = (value: number) => formatNumber(value, i18n.language);
  // A category the app has no name for (a newer server's) is shown as the server spells it.
  const categoryName = (category: string) =>
    t(`admin.deadLetters.categories.${category}`, { defaultValue: category });

  const columns: PagedColumn<DeadLetter>[] = [
    {
      key: 'receivedAt',
      label: t('admin.deadLetters.received'),
      render: (l) => dateTime(l.receivedAt),
    },
    {
      key: 'source',
      label: t('admin.deadLetters.source'),
      render: (l) => `${l.source} · ${categoryName(l.category)}`,
    },
    {
      key: 'topic',
      label: t('admin.deadLetters.topic'),
      // A made-up topic may be kilobytes long: wrapped anywhere and clamped (whole on hover
      // and in the payload dialog), so the reason and the actions stay in view.
      render: (l) => (
        <Text
          size="sm"
          lineClamp={3}
          title={l.topic ?? undefined}
          style={{ wordBreak: 'break-all', whiteSpace: 'normal', maxWidth: 280 }}
        >
          {l.topic ?? '—'}
        </Text>
      ),
    },
    {
      key: 'reason',
      label: t('admin.deadLetters.reason'),
      render: (l) => (
        <Text size="sm" style={{ whiteSpace: 'normal', maxWidth: 360 }}>
          {l.reason}
        </Text>
      ),
    },
    {
      key: 'size',
      label: t('admin.deadLetters.size'),
      align: 'right',
      render: (l) => `${number(l.payloadSize)} B`,
    },
    {
      key: 'actions',
      label: t('admin.common.actions'),
      pinned: true,
      render: (letter) => (
        <Group gap={4} wrap="nowrap">
          <Tooltip label={t('admin.deadLetters.view')}>
            <ActionIcon
              variant="subtle"
              aria-label={t('admin.deadLetters.viewNumbered', { id: letter.id })}
              onClick={() => setViewing(letter)}
              data-testid="dead-letter-view"
            >
              <IconEye size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('admin.deadLetters.download')}>
            <ActionIcon
              variant="subtle"
              component="a"
              href={deadLetterPayloadUrl(letter.id)}
              download={`dead-letter-${letter.id}.json`}
              aria-label={t('admin.deadLetters.downloadNumbered', { id: letter.id })}
              data-testid="dead-letter-download"
            >
              <IconDownload size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('admin.common.delete')}>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('admin.deadLetters.deleteNumbered', { id: letter.id })}
              onClick={() => setDeleting(letter)}
              data-testid="dead-letter-delete"
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];

  return (
    <section data-testid="page-admin-deadLetters">
      <AdminHeader
        title={t('admin.menu.deadLetters')}
        description={t('admin.deadLetters.description')}
      />
      <Stack gap="md">
        {(letters.data?.bySource.length ?? 0) > 0 && (
          <Table withTableBorder maw={640} data-testid="dead-letters-by-source">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.deadLetters.source')}</Table.Th>
                <Table.Th>{t('admin.deadLetters.category')}</Table.Th>
                <Table.Th ta="right">{t('admin.deadLetters.stored')}</Table.Th>
                <Table.Th ta="right">{t('admin.deadLetters.dropped')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {letters.data?.bySource.map((entry) => (
                <Table.Tr key={`${entry.source}-${entry.category}`}>
                  <Table.Td>{entry.source}</Table.Td>
                  <Table.Td>{categoryName(entry.category)}</Table.Td>
                  <Table.Td ta="right">{number(entry.stored)}</Table.Td>
                  <Table.Td ta="right">{number(entry.dropped)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            label={t('admin.deadLetters.reason')}
            value={reason}
            onChange={(event) => {
              setReason(event.currentTarget.value);
              dispatch({ type: 'filter', filters: {} });
            }}
            w={260}
            data-testid="dead-letters-reason"
          />
          <Select
            label={t('admin.deadLetters.source')}
            placeholder={t('admin.deadLetters.allSources')}
            data={sources}
            value={list.filters.source}
            onChange={(value) => dispatch({ type: 'filter', filters: { source: value } })}
            clearable
            w={200}
          />
          <Select
            label={t('admin.deadLetters.category')}
            placeholder={t('admin.deadLetters.allCategories')}
            data={categories.map((category) => ({
              value: category,
              label: categoryName(category),
            }))}
            value={list.filters.category}
            onChange={(value) => dispatch({ type: 'filter', filters: { category: value } })}
            clearable
            w={180}
            data-testid="dead-letters-category"
          />
          <TimeRangeInputs
            from={list.filters.from}
            to={list.filters.to}
            onChange={(range) => dispatch({ type: 'filter', filters: range })}
          />
        </Group>
        <PagedTable
          testId="dead-letters-table"
          columns={columns}
          rows={letters.data?.items}
          rowKey={(letter) => String(letter.id)}
          rowTestId={(letter) => `dead-letter-row-${letter.id}`}
          pager={pagerOf(list, letters.data, dispatch)}
          isPending={letters.isPending}
          error={letters.error}
          onRetry={() => void letters.refetch()}
          empty={
            <Text size="sm" c="dimmed" data-testid="dead-letters-empty">
              {filtered ? t('admin.deadLetters.none') : t('admin.deadLetters.noneYet')}
            </Text>
          }
        />
      </Stack>
      {viewing && <PayloadDialog letter={viewing} onClose={() => setViewing(null)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('admin.deadLetters.deleteTitle')}
        message={t('admin.deadLetters.deleteConfirm', { id: deleting?.id ?? '' })}
        confirmLabel={t('admin.common.delete')}
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
