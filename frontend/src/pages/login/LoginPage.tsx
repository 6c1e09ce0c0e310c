import {
  Alert,
  Box,
  Button,
  Group,
  Paper,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { type LoginOutcome, login } from '../../api/user';
import { safeReturnPath } from '../../app/guards';
import { startSession } from '../../app/session';
import logoUrl from '../../assets/logo.svg';
import { type Language, SUPPORTED_LANGUAGES } from '../../constants';
import { applyLanguage, normalizeLanguage } from '../../i18n';
import { loginMessageKey } from './loginMessages';

type Failure = Extract<LoginOutcome, { ok: false }>['reason'] | 'required' | null;

/** Login, outside the shell; ?error=session shows the expired-session message. */
export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [failure, setFailure] = useState<Failure>(null);
  const [busy, setBusy] = useState(false);
  const messageKey = loginMessageKey({ urlError: params.get('error'), failure });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !password) {
      setFailure('required');
      return;
    }
    setBusy(true);
    const outcome = await login({ email: email.trim(), password });
    setBusy(false);
    if (!outcome.ok) {
      setFailure(outcome.reason);
      return;
    }
    startSession(outcome.user);
    void navigate(safeReturnPath(params.get('from')), { replace: true });
  };

  return (
    <Box
      component="main"
      mih="100vh"
      style={{
        display: 'flex',
        background: 'radial-gradient(circle at 15% 10%, #12404a 0%, var(--fs-nav-bg) 55%)',
      }}
      data-testid="login-page"
    >
      <Stack justify="center" align="center" style={{ flex: 1 }} p="md">
        <Paper radius="lg" p="xl" w="100%" maw={420} shadow="xl">
          <form onSubmit={submit} data-testid="login-form" noValidate>
            <Stack gap="md">
              <Group justify="space-between" align="center">
                <Group gap="sm">
                  <img src={logoUrl} alt="" width={40} height={40} />
                  <div>
                    <Text fw={800} size="lg" lh={1.1}>
                      {t('app.name')}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t('app.analytics')}
                    </Text>
                  </div>
                </Group>
                <SegmentedControl
                  size="xs"
                  value={normalizeLanguage(i18n.language)}
                  onChange={(value) => void applyLanguage(value as Language)}
                  data={SUPPORTED_LANGUAGES.map((language) => ({
                    value: language,
                    label: language.toUpperCase(),
                  }))}
                  aria-label={t('user.language')}
                  data-testid="login-language"
                />
              </Group>
              <div>
                <Title order={1} size="h3">
                  {t('login.title')}
                </Title>
                <Text size="sm" c="dimmed">
                  {t('app.tagline')}
                </Text>
              </div>
              {messageKey && (
                <Alert
                  color={messageKey === 'login.errorSession' ? 'orange' : 'red'}
                  icon={<IconAlertCircle size={18} />}
                  data-testid="login-error"
                  data-message={messageKey}
                >
                  {t(messageKey)}
                </Alert>
              )}
              <TextInput
                label={t('login.email')}
                type="email"
                autoComplete="username"
                value={email}
                onChange={(event) => setEmail(event.currentTarget.value)}
                required
                data-testid="login-email"
              />
              <PasswordInput
                label={t('login.password')}
                autoComplete="current-password"
                visibilityToggleButtonProps={{ 'aria-label': t('user.password.show') }}
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
                required
                data-testid="login-password"
              />
              <Button type="submit" loading={busy} fullWidth data-testid="login-submit">
                {t('login.submit')}
              </Button>
            </Stack>
          </form>
        </Paper>
      </Stack>
    </Box>
  );
}
