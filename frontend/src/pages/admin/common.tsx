import {
  ActionIcon,
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  type MantineSpacing,
  Modal,
  type ModalProps,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { failureText } from '../../api/client';
import { AccountMenu } from '../../components/layout/AccountMenu';
import { PINNED_END } from '../../components/tables/PagedTable';
import { formatDateTime } from '../../lib/format';
import { JobIndicator } from './jobs';

/** Styles of an input whose text is code (a payload, a pattern): only the text is monospace,
 * its label, hint and error stay in the page's font. */
export const CODE_INPUT = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/** A field's hint under its input, so that inputs side by side in a row stay aligned. */
export const HINT_BELOW: Array<'label' | 'input' | 'description' | 'error'> = [
  'label',
  'input',
  'description',
  'error',
];

/** A dialog of the Administration app: its close button named for screen readers. */
export function AdminModal({ closeButtonProps, ...props }: ModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      {...props}
      closeButtonProps={{ 'aria-label': t('admin.common.close'), ...closeButtonProps }}
    />
  );
}

/** A toast for a result: green for success, red with the server's message for a failure. */
/**
 * The field of a form a server refusal names: its message starts with the body field
 * ("mqttInterface: ..."); null when it names none of `fields` (shown at the form's main field).
 */
export function refusedField<F extends string>(
  message: string | null,
  fields: readonly F[],
): F | null {
  const named = message?.split(':', 1)[0]?.trim();
  return fields.find((field) => field === named) ?? null;
}

export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message, withBorder: true });
}

/** A failed call's message as a toast; a text: that text (a refusal the answer carries). */
export function notifyFailure(error: unknown): void {
  notifications.show({
    color: 'red',
    // Called from event handlers: the app's one i18next instance, in the user's language.
    message: typeof error === 'string' ? error : failureText(error, i18next.t),
    withBorder: true,
    autoClose: 8_000,
  });
}

/** An instant in the browser's zone and the user's language ("—" when there is none). */
export function useDateTime(): (at: string | null | undefined) => string {
  const { i18n } = useTranslation();
  return (at) => (at ? formatDateTime(at, i18n.language) : '—');
}

/** Title, what the page is for, its actions, the job indicator and the account menu. */
export function AdminHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: string;
  actions?: ReactNode;
}) {
  return (
    <header className="fs-header" data-testid="page-header">
      <Stack gap={4} className="fs-header-main">
        <Title order={1} size="h2" data-testid="page-title">
          {title}
        </Title>
        {description && (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        )}
      </Stack>
      <Group gap="xs" wrap="nowrap" align="flex-start" className="fs-header-actions">
        {actions}
        <JobIndicator />
        <AccountMenu />
      </Group>
    </header>
  );
}

/** A refusal shown in a form (the server's message), announced to screen readers. */
export function FormError({
  error,
  testId,
  mt,
}: {
  error: string | null;
  testId?: string;
  mt?: MantineSpacing;
}) {
  if (!error) {
    return null;
  }
  return (
    <Text size="sm" c="red.8" mt={mt} role="alert" data-testid={testId}>
      {error}
    </Text>
  );
}

/** A secret the server shows once (temporary password, API token), with a copy button. */
export function ShownOnce({
  label,
  value,
  testId,
  onDone,
}: {
  label: string;
  value: string;
  testId: string;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" variant="light" title={label} data-testid={testId}>
      <Stack gap="xs">
        <Text size="sm">{t('admin.common.shownOnce')}</Text>
        <Group gap="xs" wrap="nowrap">
          <Code
            block
            data-testid={`${testId}-value`}
            style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
          >
            {value}
          </Code>
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? t('admin.common.copied') : t('admin.common.copy')}>
                <ActionIcon
                  variant="light"
                  onClick={copy}
                  aria-label={t('admin.common.copy')}
                  data-testid={`${testId}-copy`}
                >
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
        <Group justify="flex-end">
          <Button size="xs" variant="light" onClick={onDone} data-testid={`${testId}-done`}>
            {t('admin.common.done')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/** Asks before a change that cannot simply be undone (delete, revoke, move, deactivate). */
export function ConfirmDialog({
  opened,
  title,
  message,
  confirmLabel,
  pending = false,
  onConfirm,
  onClose,
  children,
}: {
  opened: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  pending?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <AdminModal opened={opened} onClose={onClose} title={title} centered>
      <Stack gap="md" data-testid="confirm-dialog">
        <Text size="sm">{message}</Text>
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('admin.common.cancel')}
          </Button>
          <Button color="red" onClick={onConfirm} loading={pending} data-testid="confirm-ok">
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </AdminModal>
  );
}

/** "Loading failed" with the server's message and a retry. */
export function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" title={t('state.loadFailedTitle')} data-testid="load-failed">
      <Group gap="sm">
        <Text size="sm">{failureText(error, t)}</Text>
        <Button size="xs" variant="light" color="red" onClick={onRetry}>
          {t('state.retry')}
        </Button>
      </Group>
    </Alert>
  );
}

/** The header of a table's actions column: named for screen readers, pinned at the table's
 * end like the cells below it (``PINNED_END``), so that a row's buttons stay in reach on a
 * phone while the table scrolls sideways. */
export function ActionsHeader() {
  const { t } = useTranslation();
  return (
    <Table.Th className={PINNED_END}>
      <VisuallyHidden>{t('admin.common.actions')}</VisuallyHidden>
    </Table.Th>
  );
}
