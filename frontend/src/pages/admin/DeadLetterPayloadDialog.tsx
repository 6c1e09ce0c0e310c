import { Alert, Badge, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deadLetterPayload, reingestDeadLetter } from '../../api/admin';
import type { DeadLetter, ReingestResult } from '../../api/adminTypes';
import { failureText } from '../../api/client';
import { AdminModal, CODE_INPUT, FormError, notifyFailure, notifySuccess } from './common';

/** The stored payload, editable; re-ingest it as stored or after a fix, with the result. */
export function PayloadDialog({ letter, onClose }: { letter: DeadLetter; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const payload = useQuery({
    queryKey: ['admin', 'deadLetterPayload', letter.id],
    queryFn: ({ signal }) => deadLetterPayload(letter.id, signal),
    staleTime: 0,
  });
  const [edited, setEdited] = useState<string | null>(null);
  const [result, setResult] = useState<ReingestResult | null>(null);
  const text = edited ?? payload.data ?? '';
  const reingest = useMutation({
    mutationFn: () =>
      reingestDeadLetter(
        letter.id,
        edited !== null && edited !== payload.data ? edited : undefined,
      ),
    onSuccess: (answer) => {
      setResult(answer);
      if (answer.accepted) {
        notifySuccess(t('admin.deadLetters.reingested'));
        void client.invalidateQueries({ queryKey: ['admin', 'deadLetters'] });
      } else {
        notifyFailure(t('admin.deadLetters.refusedBecause', { reason: answer.reason ?? '' }));
      }
    },
    onError: notifyFailure,
  });
  return (
    <AdminModal
      opened
      onClose={onClose}
      title={t('admin.deadLetters.payloadTitle', { id: letter.id })}
      size="xl"
      centered
    >
      <Stack data-testid="dead-letter-payload">
        {letter.topic && (
          <Text size="sm" style={{ wordBreak: 'break-all' }}>
            <b>{t('admin.deadLetters.topic')}:</b> {letter.topic}
          </Text>
        )}
        <Text size="sm">
          <b>{t('admin.deadLetters.reason')}:</b> {letter.reason}
        </Text>
        {letter.payloadTruncated && (
          <Alert color="orange" variant="light">
            {t('admin.deadLetters.truncated')}
          </Alert>
        )}
        {payload.error ? (
          <FormError error={failureText(payload.error, t)} />
        ) : (
          <Textarea
            label={t('admin.deadLetters.payload')}
            description={t('admin.deadLetters.payloadHint')}
            value={payload.isPending ? t('app.loading') : text}
            onChange={(event) => {
              setResult(null);
              setEdited(event.currentTarget.value);
            }}
            disabled={payload.isPending}
            autosize
            minRows={8}
            maxRows={20}
            styles={CODE_INPUT}
            data-testid="dead-letter-payload-text"
          />
        )}
        {result && (
          <Alert
            color={result.accepted ? 'green' : 'red'}
            variant="light"
            data-testid="dead-letter-reingest-result"
            data-accepted={result.accepted}
          >
            {result.accepted
              ? t('admin.deadLetters.reingested')
              : t('admin.deadLetters.refusedBecause', { reason: result.reason ?? '' })}
          </Alert>
        )}
        <Group justify="space-between">
          <Group gap="xs">
            {edited !== null && edited !== payload.data && (
              <Badge color="orange" variant="light">
                {t('admin.deadLetters.edited')}
              </Badge>
            )}
          </Group>
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>
              {t('admin.common.close')}
            </Button>
            <Button
              onClick={() => reingest.mutate()}
              loading={reingest.isPending}
              disabled={payload.isPending || result?.accepted === true}
              data-testid="dead-letter-reingest"
            >
              {t('admin.deadLetters.reingest')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </AdminModal>
  );
}
