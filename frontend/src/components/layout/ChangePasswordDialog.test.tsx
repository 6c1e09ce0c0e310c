import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configureRequestChain } from '../../api/client';
import type { User } from '../../api/types';
import { clearError, currentError, reportError } from '../../app/errorStore';
import { Providers } from '../../app/Providers';
import { getSession, resetSession, startSession } from '../../app/session';
import { createI18n } from '../../i18n';
import { demoUser } from '../../test/fakeApi';
import { failed, fakeFetch, jsonResponse, ok } from '../../test/fakeServer';
import { ChangePasswordDialog } from './ChangePasswordDialog';

const temporaryUser: User = { ...demoUser('customer'), passwordTemporary: true };

beforeEach(() => {
  createI18n('en');
  clearError();
  resetSession();
  startSession(temporaryUser);
});

/** The dialog alone, against a fetch answering `answers` in turn (errors go to the store). */
function renderDialog(...answers: Parameters<typeof fakeFetch>) {
  const fetchMock = fakeFetch(...answers);
  configureRequestChain({ fetch: fetchMock as unknown as typeof fetch, reportError });
  const onClose = vi.fn();
  render(
    <Providers>
      <ChangePasswordDialog opened onClose={onClose} />
    </Providers>,
  );
  return { fetchMock, onClose };
}

async function fill(values: { current?: string; next?: string; repeat?: string }) {
  const fields = { current: 'password-current', next: 'password-new', repeat: 'password-repeat' };
  for (const [name, testId] of Object.entries(fields)) {
    const value = values[name as keyof typeof values];
    if (value !== undefined) {
      fireEvent.change(await screen.findByTestId(testId), { target: { value } });
    }
  }
}

function submit() {
  fireEvent.click(screen.getByTestId('password-submit'));
}

describe('ChangePasswordDialog', () => {
  it('checks the form before asking the server: filled, long enough, repeated', async () => {
    const { fetchMock } = renderDialog();
    await screen.findByTestId('change-password-form');
    submit();
    expect(await screen.findAllByText('Please fill in this field.')).toHaveLength(3);
    for (const testId of ['password-current', 'password-new', 'password-repeat']) {
      expect(screen.getByTestId(testId)).toHaveAttribute('aria-invalid', 'true');
    }

    await fill({ current: 'Temp-1234', next: 'short', repeat: 'short' });
    expect(
      await screen.findByText('The new password needs at least 8 characters.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('password-current')).toHaveAttribute('aria-invalid', 'false');

    await fill({ next: 'long enough', repeat: 'long enougH' });
    expect(await screen.findByText('The two new passwords do not match.')).toBeInTheDocument();
    submit();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the server's 422 message inline at the field it names, without the error overlay", async () => {
    const { fetchMock, onClose } = renderDialog(() =>
      jsonResponse(failed('currentPassword: this is not your current password'), 422),
    );
    await fill({ current: 'wrong one', next: 'my own secret', repeat: 'my own secret' });
    submit();
    expect(await screen.findByTestId('password-error')).toHaveTextContent(
      'Current password: this is not your current password',
    );
    expect(screen.getByTestId('password-current')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();
    expect(currentError()).toBeNull();
    expect(getSession().user?.passwordTemporary).toBe(true);
  });

  it('on success: closes, updates the session user and shows "Password changed"', async () => {
    const changed: User = { ...temporaryUser, passwordTemporary: false };
    const { fetchMock, onClose } = renderDialog(() => jsonResponse(ok(changed)));
    await fill({ current: 'Temp-1234', next: 'my own secret', repeat: 'my own secret' });
    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(getSession()).toEqual({ status: 'authenticated', user: changed });
    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/v2/User/password');
    expect(JSON.parse(String(init?.body))).toEqual({
      currentPassword: 'Temp-1234',
      newPassword: 'my own secret',
    });
  });

  it('a server failure without a usable message shows a retry hint', async () => {
    renderDialog(() => new Response('<html>bad gateway</html>', { status: 502 }));
    await fill({ current: 'Temp-1234', next: 'my own secret', repeat: 'my own secret' });
    submit();
    expect(await screen.findByTestId('password-error')).toHaveTextContent(
      'The password could not be changed. Please try again.',
    );
    expect(currentError()).toBeNull();
  });

  it('speaks German', async () => {
    createI18n('de');
    renderDialog();
    expect(await screen.findByText('Passwort ändern', { selector: 'h2' })).toBeInTheDocument();
    expect(screen.getByText('Aktuelles Passwort')).toBeInTheDocument();
    expect(screen.getByText('Neues Passwort wiederholen')).toBeInTheDocument();
  });
});
