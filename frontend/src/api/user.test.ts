import { beforeEach, describe, expect, it } from 'vitest';
import { chainHarness } from '../test/chainHarness';
import { demoUser } from '../test/fakeApi';
import { failed, fakeFetch, jsonResponse, ok } from '../test/fakeServer';
import { changePassword } from './user';

const { recorded, reset, setup } = chainHarness();
beforeEach(reset);

const PASSWORDS = { currentPassword: 'Temp-1234', newPassword: 'my own secret' };

describe('changePassword', () => {
  it('posts both passwords and answers the changed user on 200', async () => {
    const user = { ...demoUser('customer'), passwordTemporary: false };
    const fetchMock = setup(fakeFetch(() => jsonResponse(ok(user))));
    const outcome = await changePassword(PASSWORDS);
    expect(outcome).toEqual({ ok: true, user });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/v2/User/password');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual(PASSWORDS);
  });

  it('422: invalid with the server message, and no error overlay', async () => {
    setup(
      fakeFetch(() =>
        jsonResponse(failed('currentPassword: this is not your current password'), 422),
      ),
    );
    expect(await changePassword(PASSWORDS)).toEqual({
      ok: false,
      reason: 'invalid',
      message: 'currentPassword: this is not your current password',
    });
    expect(recorded.errors).toEqual([]);
    expect(recorded.authFailures).toBe(0);
  });

  it('429: rate limited with the server message (how long to wait), and no error overlay', async () => {
    const message = 'currentPassword: too many wrong attempts; try again in 60 seconds';
    setup(
      fakeFetch(
        () =>
          new Response(JSON.stringify(failed(message)), {
            status: 429,
            headers: { 'Content-Type': 'application/json', 'Retry-After': '60' },
          }),
      ),
    );
    expect(await changePassword(PASSWORDS)).toEqual({
      ok: false,
      reason: 'rate_limited',
      message,
    });
    expect(recorded.errors).toEqual([]);
  });

  it("401 'authentication failed': the session ends as on every other route", async () => {
    setup(fakeFetch(() => jsonResponse(failed('authentication failed'), 401)));
    const outcome = await changePassword(PASSWORDS);
    expect(outcome).toMatchObject({ ok: false, reason: 'session' });
    expect(recorded.authFailures).toBe(1);
    expect(recorded.errors).toEqual([]);
  });

  it('a server failure or no connection: unavailable, without the overlay', async () => {
    setup(
      fakeFetch(
        () => new Response('<html>bad gateway</html>', { status: 502 }),
        () => {
          throw new TypeError('Failed to fetch');
        },
      ),
    );
    expect(await changePassword(PASSWORDS)).toEqual({
      ok: false,
      reason: 'unavailable',
      message: 'HTTP 502',
    });
    expect(await changePassword(PASSWORDS)).toEqual({
      ok: false,
      reason: 'unavailable',
      message: null,
    });
    expect(recorded.errors).toEqual([]);
  });
});
