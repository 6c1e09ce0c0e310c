import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  ScrollArea,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { previewWorkflows } from '../../api/admin';
import { failureText } from '../../api/client';
import { formatNumber } from '../../lib/format';
import { CODE_INPUT, FormError } from './common';
import { moveRule, previewTable, rulesToSend } from './workflowPreview';

/** How long typing must pause before the preview asks the server. */
const PREVIEW_DEBOUNCE_MS = 400;

interface Rule {
  key: number;
  pattern: string;
}

interface WorkflowRulesEditorProps {
  siteId: number;
  rules: string[];
  saving: boolean;
  serverError: string | null;
  onSave: (rules: string[]) => void;
  onEdit: () => void;
}

/**
 * The site's workflow rules as an ordered list (first match wins) with a live preview
 * against the site's most recent 1,000 order ids: per rule its matches or its error, per
 * id its workflow and rule, the ids no rule assigns highlighted.
 */
export function WorkflowRulesEditor({
  siteId,
  rules,
  saving,
  serverError,
  onSave,
  onEdit,
}: WorkflowRulesEditorProps) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => formatNumber(value, i18n.language);
  const [draft, setDraft] = useState<Rule[]>(() => rules.map((pattern, key) => ({ key, pattern })));
  const [nextKey, setNextKey] = useState(rules.length);
  const [unassignedOnly, setUnassignedOnly] = useState(false);
  // Reset to the saved rules when they change (not when the same rules are read again).
  const savedKey = JSON.stringify(rules);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the rules' value
  useEffect(() => {
    setDraft(rules.map((pattern, key) => ({ key, pattern })));
    setNextKey(rules.length);
  }, [savedKey]);

  const toSend = rulesToSend(draft.map((rule) => rule.pattern));
  const [debounced] = useDebouncedValue(toSend, PREVIEW_DEBOUNCE_MS);
  const preview = useQuery({
    queryKey: ['admin', 'workflowPreview', siteId, debounced],
    queryFn: ({ signal }) => previewWorkflows(siteId, debounced, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const table = preview.data ? previewTable(preview.data, { unassignedOnly }) : null;
  // Rule errors by the pattern's position among the rules sent (empty lines are not sent).
  const sentIndex = new Map<number, number>();
  draft.forEach((rule, position) => {
    if (rule.pattern.trim()) {
      sentIndex.set(position, sentIndex.size);
    }
  });
  const previewFresh = JSON.stringify(debounced) === JSON.stringify(toSend) && !preview.isFetching;
  const changed = JSON.stringify(toSend) !== JSON.stringify(rules);

  const edit = (next: Rule[]) => {
    onEdit();
    setDraft(next);
  };

  return (
    <Stack gap="md" data-testid="workflow-rules">
      <Stack gap="xs">
        {draft.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('admin.rules.none')}
          </Text>
        )}
        {draft.map((rule, position) => {
          const index = sentIndex.get(position);
          const result = index === undefined ? undefined : table?.rules[index];
          return (
            <Group
              key={rule.key}
              align="flex-start"
              gap="xs"
              wrap="nowrap"
              data-testid={`rule-${position}`}
            >
              <Text size="sm" fw={600} mt={8} w={28} ta="right">
                {position + 1}.
              </Text>
              <TextInput
                aria-label={t('admin.rules.pattern', { number: position + 1 })}
                value={rule.pattern}
                onChange={(event) => {
                  const pattern = event.currentTarget.value;
                  edit(draft.map((item) => (item.key === rule.key ? { ...item, pattern } : item)));
                }}
                placeholder="^(?P<workflow>[A-Z_]+)-\d+$"
                error={result?.error ?? null}
                styles={CODE_INPUT}
                style={{ flex: 1 }}
                data-testid="rule-pattern"
              />
              <Badge
                mt={6}
                variant="light"
                color={result?.error ? 'red' : 'brand'}
                w={120}
                data-testid="rule-matched"
              >
                {result && !result.error
                  ? t('admin.rules.matched', {
                      count: result.matched,
                      number: number(result.matched),
                    })
                  : result?.error
                    ? t('admin.rules.invalid')
                    : '—'}
              </Badge>
              <Tooltip label={t('admin.rules.up')}>
                <ActionIcon
                  variant="subtle"
                  mt={4}
                  disabled={position === 0}
                  aria-label={t('admin.rules.upNamed', { number: position + 1 })}
                  onClick={() => edit(moveRule(draft, position, -1))}
                  data-testid="rule-up"
                >
                  <IconArrowUp size={16} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('admin.rules.down')}>
                <ActionIcon
                  variant="subtle"
                  mt={4}
                  disabled={position === draft.length - 1}
                  aria-label={t('admin.rules.downNamed', { number: position + 1 })}
                  onClick={() => edit(moveRule(draft, position, 1))}
                  data-testid="rule-down"
                >
                  <IconArrowDown size={16} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('admin.rules.remove')}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={4}
                  aria-label={t('admin.rules.removeNamed', { number: position + 1 })}
                  onClick={() => edit(draft.filter((item) => item.key !== rule.key))}
                  data-testid="rule-remove"
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          );
        })}
      </Stack>
      {serverError && (
        <Alert color="red" variant="light" data-testid="rules-error">
          {serverError}
        </Alert>
      )}
      <Group justify="space-between">
        <Button
          variant="light"
          leftSection={<IconPlus size={16} />}
          onClick={() => {
            edit([...draft, { key: nextKey, pattern: '' }]);
            setNextKey(nextKey + 1);
          }}
          data-testid="rule-add"
        >
          {t('admin.rules.add')}
        </Button>
        <Group gap="xs">
          <Button
            variant="default"
            disabled={!changed}
            onClick={() => setDraft(rules.map((pattern, key) => ({ key, pattern })))}
          >
            {t('admin.common.reset')}
          </Button>
          <Button
            onClick={() => onSave(toSend)}
            loading={saving}
            disabled={!changed || (previewFresh && table?.hasErrors === true)}
            data-testid="rules-save"
          >
            {t('admin.rules.save')}
          </Button>
        </Group>
      </Group>

      <Paper withBorder radius="md" p="md" data-testid="rules-preview" data-fresh={previewFresh}>
        <Group justify="space-between" mb="xs" wrap="wrap">
          <Title order={3} size="h5">
            {t('admin.rules.previewTitle')}
          </Title>
          <Switch
            label={t('admin.rules.unassignedOnly')}
            checked={unassignedOnly}
            onChange={(event) => setUnassignedOnly(event.currentTarget.checked)}
            data-testid="preview-unassigned-only"
          />
        </Group>
        {preview.error ? (
          <FormError error={failureText(preview.error, t)} />
        ) : !table ? (
          <Text size="sm" c="dimmed">
            {t('app.loading')}
          </Text>
        ) : (
          <Stack gap="sm">
            {preview.data?.defaultRuleApplies && (
              <Text size="sm" c="dimmed" data-testid="preview-default-rule">
                {t('admin.rules.defaultApplies')}
              </Text>
            )}
            <Group gap="md" data-testid="preview-counts">
              <Text size="sm">
                {t('admin.rules.previewTotal', { number: number(table.total) })}
              </Text>
              <Text size="sm" c="green.9" data-testid="preview-assigned">
                {t('admin.rules.previewAssigned', { number: number(table.assigned) })}
              </Text>
              <Text size="sm" c="orange.9" fw={600} data-testid="preview-unassigned">
                {t('admin.rules.previewUnassigned', { number: number(table.unassigned) })}
              </Text>
            </Group>
            {table.workflows.length > 0 && (
              <Group gap={6} data-testid="preview-workflows">
                {table.workflows.map((entry) => (
                  <Badge key={entry.workflow} variant="outline" tt="none">
                    {entry.workflow}: {number(entry.count)}
                  </Badge>
                ))}
              </Group>
            )}
            {table.total === 0 ? (
              <Text size="sm" c="dimmed" data-testid="preview-no-orders">
                {t('admin.rules.previewNoOrders')}
              </Text>
            ) : (
              <ScrollArea.Autosize
                mah={360}
                type="auto"
                // A region that scrolls is reached by keyboard too (and named for it).
                viewportProps={{
                  tabIndex: 0,
                  role: 'region',
                  'aria-label': t('admin.rules.previewTitle'),
                }}
              >
                <Table striped stickyHeader data-testid="preview-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('admin.rules.orderId')}</Table.Th>
                      <Table.Th>{t('admin.rules.workflow')}</Table.Th>
                      <Table.Th>{t('admin.rules.rule')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {table.orders.map((row) => (
                      <Table.Tr
                        key={row.key}
                        data-unassigned={row.unassigned}
                        bg={row.unassigned ? 'var(--mantine-color-orange-light)' : undefined}
                      >
                        <Table.Td ff="monospace">{row.orderId}</Table.Td>
                        <Table.Td fw={row.unassigned ? 600 : undefined}>
                          {row.workflow ?? t('admin.rules.unassigned')}
                        </Table.Td>
                        <Table.Td>{row.ruleLabel ?? '—'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollArea.Autosize>
            )}
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
