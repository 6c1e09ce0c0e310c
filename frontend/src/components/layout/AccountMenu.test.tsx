import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../api/types';
import { demoUser } from '../../test/fakeApi';
import { jsonResponse, ok } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

afterEach(() => {
  vi.unstubAllGlobals();
});

const TIMEOUT = { timeout: 8000 };
const temporaryUser: User = { ...demoUser('customer'), passwordTemporary: true };

/** The fake API of renderApp, plus POST /v2/User/password answering `changed`. */
function answerPasswordChange(base: typeof fetch, changed: User) {
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
    String(input) === '/v2/User/password'
      ? Promise.resolve(jsonResponse(ok(changed)))
      : base(input, init),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('account menu: own password', () => {
  it('a temporary password: a dot and a note, nothing pops up; the item opens the dialog', async () => {
    const { server } = renderApp('/dashboards/dashboard', { user: temporaryUser });
    const target = await screen.findByTestId('account-menu', {}, TIMEOUT);
    expect(target).toHaveAccessibleName('Account — temporary password');
    expect(screen.getByTestId('password-temporary-indicator')).toBeInTheDocument();
    // Nothing modal of its own accord (the cookie banner is a dialog, but not a modal one).
    expect(document.querySelector('[aria-modal="true"]')).toBeNull();

    fireEvent.click(target);
    expect(await screen.findByTestId('password-temporary-note')).toHaveTextContent(
      'You are signed in with a temporary password. Choose your own.',
    );
    fireEvent.click(screen.getByTestId('change-password'));
    expect(await screen.findByRole('dialog', { name: 'Change password' })).toBeInTheDocument();

    // Changed: the session user follows, the dot and the note are gone.
    const fetchMock = answerPasswordChange(server.fetchMock as unknown as typeof fetch, {
      ...temporaryUser,
      passwordTemporary: false,
    });
    for (const [testId, value] of [
      ['password-current', 'Temp-1234'],
      ['password-new', 'my own secret'],
      ['password-repeat', 'my own secret'],
    ] as const) {
      fireEvent.change(screen.getByTestId(testId), { target: { value } });
    }
    fireEvent.click(screen.getByTestId('password-submit'));
    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('password-temporary-indicator')).toBeNull());
    expect(screen.getByTestId('account-menu')).toHaveAccessibleName('Account');
    expect(fetchMock).toHaveBeenCalledWith('/v2/User/password', expect.anything());
  });

  it('an own password: no dot, no note, the item is there', async () => {
    renderApp('/dashboards/dashboard', {
      user: { ...demoUser('customer'), passwordTemporary: false },
    });
    const target = await screen.findByTestId('account-menu', {}, TIMEOUT);
    expect(target).toHaveAccessibleName('Account');
    expect(screen.queryByTestId('password-temporary-indicator')).toBeNull();
    fireEvent.click(target);
    expect(await screen.findByTestId('change-password')).toHaveTextContent('Change password');
    expect(screen.queryByTestId('password-temporary-note')).toBeNull();
  });
});
