import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';
import { SoftAuthenticator } from '../support/soft-authenticator.js';

const PASSKEYS = '/api/user-service/passkeys';
const USERS = '/api/user-service/users';
/** The user service's default WEBAUTHN_ORIGINS (npm start's web client). */
const ORIGIN = 'http://localhost:8080';

/** Passkeys through the BFF, answered by a software authenticator (test/support/soft-authenticator.ts). */
describe('passkeys through the BFF', () => {
  // Failed passkey sign-ins count as failed logins from the address (the other tests here fail 3 from 127.0.0.1).
  const { call } = usePlatform({
    bffLimits: { LIMIT_LOGIN_FAILURES_PER_ADDRESS: { points: 4, durationSeconds: 3600, blockSeconds: 3600 } },
  });

  /**
   * A sign-in from an address of its own: failed sign-ins count as failed logins per address
   * (test/e2e/passkeys-limits.test.ts), and counts for 127.0.0.1 outlive a platform in the shared test Redis.
   */
  const signIn = (options: { body: unknown }) =>
    call('POST', `${PASSKEYS}/sign-in`, {
      ...options,
      headers: { 'x-forwarded-for': `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}` },
    });

  async function signUp() {
    const res = await call('POST', `${USERS}/sign-up`, { body: { email: freshEmail(), password: 'correct horse battery' } });
    expect(res.status).toBe(201);
    return { token: res.body.accessToken as string, userUuid: res.body.userUuid as string };
  }

  async function register(token: string, authenticator: SoftAuthenticator, name?: string) {
    const options = await call('POST', `${PASSKEYS}/registration-options`, { token });
    expect(options.status).toBe(200);
    return call('POST', `${PASSKEYS}/register`, { token, body: { name, response: authenticator.create(options.body) } });
  }

  async function signInAnswer(authenticator: SoftAuthenticator) {
    const options = await call('POST', `${PASSKEYS}/authentication-options`);
    expect(options).toMatchObject({ status: 200, body: { rpId: 'localhost', userVerification: 'preferred' } });
    return authenticator.get(options.body);
  }

  it('refuses the authenticated paths without a token, and guests', async () => {
    const paths: Array<[string, string, unknown?]> = [
      ['GET', PASSKEYS],
      ['POST', `${PASSKEYS}/registration-options`],
      ['POST', `${PASSKEYS}/register`, { response: {} }],
      ['DELETE', `${PASSKEYS}/00000000-0000-4000-8000-000000000000`],
    ];
    for (const [method, path, body] of paths) {
      expect(await call(method, path, { body }), `${method} ${path}`).toMatchObject({ status: 401, body: { statusCode: 401 } });
    }
    const guest = (await call('GET', '/api/user-service/auth/guest')).body.accessToken as string;
    expect(await call('POST', `${PASSKEYS}/registration-options`, { token: guest })).toMatchObject({ status: 403 });
    expect(await call('GET', PASSKEYS, { token: await signedToken('bot') })).toMatchObject({ status: 403 });
  });

  it('registers a passkey, lists it, signs in with it like a login, and refuses a replayed challenge', async () => {
    const { token, userUuid } = await signUp();
    const authenticator = new SoftAuthenticator(ORIGIN);
    const created = await register(token, authenticator, 'Work laptop');
    expect(created).toMatchObject({ status: 201, body: { name: 'Work laptop', lastUsedAt: null, backedUp: false } });

    const answer = await signInAnswer(authenticator);
    const signedIn = await signIn({ body: { response: answer } });
    expect(signedIn).toMatchObject({ status: 200, body: { userUuid } });
    const session = await call('GET', '/api/user-service/auth/session', { token: signedIn.body.accessToken });
    expect(session).toMatchObject({ status: 200, body: { userUuid, kind: 'user' } });

    // The same signed answer again: its challenge was used.
    expect(await signIn({ body: { response: answer } })).toMatchObject({
      status: 401,
      body: { statusCode: 401, message: 'Passkey sign-in failed', error: 'Unauthorized' },
    });

    const listed = await call('GET', PASSKEYS, { token });
    expect(listed).toMatchObject({ status: 200, body: [{ id: created.body.id, name: 'Work laptop' }] });
    expect(Date.parse(listed.body[0].lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(listed.body[0].createdAt));

    // A registration answer replayed: refused, nothing added.
    const options = await call('POST', `${PASSKEYS}/registration-options`, { token });
    const registration = authenticator.create(options.body);
    expect((await call('POST', `${PASSKEYS}/register`, { token, body: { response: registration } })).status).toBe(201);
    expect(await call('POST', `${PASSKEYS}/register`, { token, body: { response: registration } })).toMatchObject({
      status: 400,
      body: { message: 'Passkey registration failed' },
    });
    expect((await call('GET', PASSKEYS, { token })).body).toHaveLength(2);
  });

  it("deletes only the caller's passkeys, after which they sign no one in", async () => {
    const ana = await signUp();
    const bo = await signUp();
    const authenticator = new SoftAuthenticator(ORIGIN);
    const { body: passkey } = await register(ana.token, authenticator);
    expect(passkey.name).toBe('Passkey 1');

    expect(await call('DELETE', `${PASSKEYS}/${passkey.id}`, { token: bo.token })).toMatchObject({
      status: 404,
      body: { message: 'Passkey not found' },
    });
    expect(await call('DELETE', `${PASSKEYS}/${passkey.id}`, { token: ana.token })).toMatchObject({ status: 200, body: {} });
    expect((await call('GET', PASSKEYS, { token: ana.token })).body).toEqual([]);
    const answer = await signInAnswer(authenticator);
    expect((await signIn({ body: { response: answer } })).status).toBe(401);
  });

  it('refuses a banned account the way a login does', async () => {
    const { token, userUuid } = await signUp();
    const authenticator = new SoftAuthenticator(ORIGIN);
    expect((await register(token, authenticator)).status).toBe(201);
    const moderator = await signedToken('moderator');
    expect((await call('POST', `${USERS}/ban`, { token: moderator, body: { userUuid } })).status).toBe(200);
    expect(await signIn({ body: { response: await signInAnswer(authenticator) } })).toMatchObject({
      status: 403,
      body: { message: 'This account is banned' },
    });
  });

  it('answers 400 for bodies that are no WebAuthn answer, and 401 for an answer signed elsewhere', async () => {
    const { token } = await signUp();
    expect((await call('POST', `${PASSKEYS}/register`, { token, body: { response: { id: 'x' } } })).status).toBe(400);
    expect((await signIn({ body: {} })).status).toBe(400);
    const named = new SoftAuthenticator(ORIGIN);
    const forName = await call('POST', `${PASSKEYS}/registration-options`, { token });
    const tooLong = { name: 'x'.repeat(65), response: named.create(forName.body) };
    expect((await call('POST', `${PASSKEYS}/register`, { token, body: tooLong })).status).toBe(400);
    const authenticator = new SoftAuthenticator('https://evil.example');
    const options = await call('POST', `${PASSKEYS}/registration-options`, { token });
    expect((await call('POST', `${PASSKEYS}/register`, { token, body: { response: authenticator.create(options.body) } })).status).toBe(
      400,
    );
  });
});
