import { Alert, Button, Group, Modal, PasswordInput, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changePassword } from '../../api/user';
import { updateSessionUser } from '../../app/session';
import { MIN_PASSWORD_LENGTH } from '../../constants';

type Field = 'currentPassword' | 'newPassword' | 'repeatPassword';
type Values = Record<Field, string>;

const EMPTY: Values = { currentPassword: '', newPassword: '', repeatPassword: '' };

const LABELS: Record<Field, string> = {
  currentPassword: 'user.password.current',
  newPassword: 'user.password.new',
  repeatPassword: 'user.password.repeat',
};

/** The checks made before asking the server: the i18n key of each field's problem. */
export function passwordFormErrors(values: Values): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  for (const field of Object.keys(LABELS) as Field[]) {
    if (!values[field]) {
      errors[field] = 'user.password.required';
    }
  }
  if (values.newPassword && values.newPassword.length < MIN_PASSWORD_LENGTH) {
    errors.newPassword = 'user.password.tooShort';
  }
  if (values.repeatPassword && values.repeatPassword !== values.newPassword) {
    errors.repeatPassword = 'user.password.mismatch';
  }
  return errors;
}

interface ServerProblem {
  field: Field | null;
  text: string;
}

/** The server names the field first ("newPassword: at least 8 characters"). */
function serverProblem(message: string): ServerProblem {
  const match = /^(currentPassword|newPassword):\s*(.+)$/s.exec(message.trim());
  return match
    ? { field: match[1] as Field, text: match[2] ?? message }
    : { field: null, text: message };
}

/** The form lives inside the modal: closing unmounts it, so no password stays in memory. */
function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(EMPTY);
  // Field problems show after the first submit, then follow the typing.
  const [checked, setChecked] = useState(false);
  const [problem, setProblem] = useState<ServerProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const errors = checked ? passwordFormErrors(values) : {};

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (Object.keys(passwordFormErrors(values)).length > 0) {
      return;
    }
    setBusy(true);
    setProblem(null);
    const outcome = await changePassword({
      currentPassword: values.currentPassword,
      newPassword: values.newPassword,
    });
    setBusy(false);
    if (outcome.ok) {
      updateSessionUser(outcome.user);
      notifications.show({
        color: 'green',
        title: t('user.password.changed'),
        message: t('user.password.otherSessions'),
        withBorder: true,
      });
      onDone();
      return;
    }
    // The server's words for what the user can act on; for the rest ('HTTP 502', no network)
    // a plain retry hint. A lost session has already sent the user to login (request chain).
    const actionable = outcome.reason === 'invalid' || outcome.reason === 'rate_limited';
    setProblem(
      actionable && outcome.message
        ? serverProblem(outcome.message)
        : { field: null, text: t('user.password.failed') },
    );
  };

  const input = (field: Field, testId: string, autoComplete: string) => {
    const error = errors[field];
    const invalid = Boolean(error) || problem?.field === field;
    return {
      label: t(LABELS[field]),
      value: values[field],
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        const value = event.currentTarget.value;
        setValues((previous) => ({ ...previous, [field]: value }));
      },
      // The field the server's message names is marked too (the message is in the alert).
      error: error ? t(error, { min: MIN_PASSWORD_LENGTH }) : invalid,
      // PasswordInput marks its input only with data-invalid; screen readers need aria-invalid.
      'aria-invalid': invalid,
      visibilityToggleButtonProps: { 'aria-label': t('user.password.show') },
      autoComplete,
      required: true,
      'data-testid': testId,
    };
  };

  return (
    <form onSubmit={submit} noValidate data-testid="change-password-form">
      <Stack gap="md">
        {problem && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="password-error">
            {problem.field ? `${t(LABELS[problem.field])}: ${problem.text}` : problem.text}
          </Alert>
        )}
        <PasswordInput
          {...input('currentPassword', 'password-current', 'current-password')}
          data-autofocus
        />
        <PasswordInput
          {...input('newPassword', 'password-new', 'new-password')}
          description={t('user.password.newHint', { min: MIN_PASSWORD_LENGTH })}
        />
        <PasswordInput {...input('repeatPassword', 'password-repeat', 'new-password')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone} data-testid="password-cancel">
            {t('user.password.cancel')}
          </Button>
          <Button type="submit" loading={busy} data-testid="password-submit">
            {t('user.password.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The user's own password instead of the current one (e.g. an administrator's temporary). */
export function ChangePasswordDialog({
  opened,
  onClose,
}: {
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('user.password.title')}
      centered
      closeButtonProps={{ 'aria-label': t('user.password.close') }}
    >
      <ChangePasswordForm onDone={onClose} />
    </Modal>
  );
}
