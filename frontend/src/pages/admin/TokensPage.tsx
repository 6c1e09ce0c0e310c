import { Badge, Button, Group, Paper, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { createToken, listTokens, revokeToken } from '../../api/admin';
import type { ApiToken } from '../../api/adminTypes';
import { failureText } from '../../api/client';
import { PINNED_END } from '../../components/tables/PagedTable';
import {
  ActionsHeader,
  AdminHeader,
  ConfirmDialog,
  HINT_BELOW,
  LoadFailed,
  notifyFailure,
  notifySuccess,
  ShownOnce,
  useDateTime,
} from './common';
import { useSites } from './SitesPage';

/** API tokens of a site (for POST /v2/Ingest/vda5050): list, create (shown once), revoke. */
export function TokensPage() {
  const { t } = useTranslation();
  const dateTime = useDateTime();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const sites = useSites();
  const siteParam = params.get('siteId');
  const siteId = siteParam ? Number(siteParam) : null;
  const tokens = useQuery({
    queryKey: ['admin', 'tokens', siteId],
    queryFn: () => listTokens(siteId ?? 0),
    enabled: siteId !== null,
    staleTime: 0,
  });
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);

  const create = useMutation({
    mutationFn: () => createToken(siteId ?? 0, name.trim()),
    onSuccess: (token) => {
      notifySuccess(t('admin.tokens.created', { name: token.name }));
      setSecret({ name: token.name, token: token.token });
      setName('');
      setError(null);
      void client.invalidateQueries({ queryKey: ['admin', 'tokens'] });
    },
    onError: (failure) => {
      setError(failureText(failure, t));
      notifyFailure(failure);
    },
  });
  const revoke = useMutation({
    mutationFn: (token: ApiToken) => revokeToken(token.siteId, token.id),
    onSuccess: (token) => {
      notifySuccess(t('admin.tokens.revoked', { name: token.name }));
      setRevoking(null);
      void client.invalidateQueries({ queryKey: ['admin', 'tokens'] });
    },
    onError: (failure) => {
      setRevoking(null);
      notifyFailure(failure);
    },
  });

  return (
    <section data-testid="page-admin-tokens">
      <AdminHeader title={t('admin.menu.tokens')} description={t('admin.tokens.description')} />
      <Stack gap="lg">
        <Select
          label={t('admin.common.site')}
          placeholder={t('admin.tokens.chooseSite')}
          data={(sites.data ?? []).map((site) => ({
            value: String(site.id),
            label: `${site.name} (${site.organizationName})`,
          }))}
          value={siteParam}
          onChange={(value) => {
            setSecret(null);
            setParams(value ? { siteId: value } : {});
          }}
          searchable
          w={360}
          data-testid="tokens-site"
        />
        {siteId === null ? (
          <Text size="sm" c="dimmed">
            {t('admin.tokens.chooseSiteHint')}
          </Text>
        ) : (
          <>
            {secret && (
              <ShownOnce
                label={t('admin.tokens.secretTitle', { name: secret.name })}
                value={secret.token}
                testId="token-secret"
                onDone={() => setSecret(null)}
              />
            )}
            <Paper withBorder radius="md" p="md">
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  create.mutate();
                }}
              >
                <Group align="flex-start" gap="sm">
                  <TextInput
                    label={t('admin.tokens.name')}
                    description={t('admin.tokens.nameHint')}
                    inputWrapperOrder={HINT_BELOW}
                    value={name}
                    onChange={(event) => setName(event.currentTarget.value)}
                    error={error}
                    required
                    w={320}
                    data-testid="token-name"
                  />
                  <Button
                    type="submit"
                    mt={25}
                    leftSection={<IconPlus size={16} />}
                    loading={create.isPending}
                    disabled={!name.trim()}
                    data-testid="token-create"
                  >
                    {t('admin.tokens.create')}
                  </Button>
                </Group>
              </form>
            </Paper>
            {tokens.error ? (
              <LoadFailed error={tokens.error} onRetry={() => void tokens.refetch()} />
            ) : (
              <Table.ScrollContainer minWidth={560}>
                <Table striped data-testid="tokens-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('admin.tokens.name')}</Table.Th>
                      <Table.Th>{t('admin.common.created')}</Table.Th>
                      <Table.Th>{t('admin.tokens.lastUsed')}</Table.Th>
                      <Table.Th>{t('admin.tokens.status')}</Table.Th>
                      <ActionsHeader />
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {(tokens.data ?? []).map((token) => (
                      <Table.Tr key={token.id} data-testid={`token-row-${token.name}`}>
                        <Table.Td fw={600}>{token.name}</Table.Td>
                        <Table.Td>{dateTime(token.createdAt)}</Table.Td>
                        <Table.Td data-testid="token-last-used">
                          {token.lastUsedAt ? dateTime(token.lastUsedAt) : t('admin.tokens.never')}
                        </Table.Td>
                        <Table.Td>
                          {token.revokedAt ? (
                            <Badge color="gray" variant="light">
                              {t('admin.tokens.revokedAt', { at: dateTime(token.revokedAt) })}
                            </Badge>
                          ) : (
                            <Badge color="green" variant="light">
                              {t('admin.tokens.valid')}
                            </Badge>
                          )}
                        </Table.Td>
                        <Table.Td className={PINNED_END} ta="right">
                          {!token.revokedAt && (
                            <Button
                              size="xs"
                              variant="light"
                              color="red"
                              onClick={() => setRevoking(token)}
                              data-testid="token-revoke"
                            >
                              {t('admin.tokens.revoke')}
                            </Button>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            {tokens.data?.length === 0 && (
              <Text size="sm" c="dimmed" data-testid="tokens-empty">
                {t('admin.tokens.none')}
              </Text>
            )}
          </>
        )}
      </Stack>
      <ConfirmDialog
        opened={revoking !== null}
        title={t('admin.tokens.revokeTitle')}
        message={t('admin.tokens.revokeConfirm', { name: revoking?.name ?? '' })}
        confirmLabel={t('admin.tokens.revoke')}
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onClose={() => setRevoking(null)}
      />
    </section>
  );
}
