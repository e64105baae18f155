import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshEmail, usePlatform } from '../support/platform.js';
import { SoftAuthenticator } from '../support/soft-authenticator.js';

const PASSKEYS = '/api/user-service/passkeys';
const USERS = '/api/user-service/users';
/** The user service's default WEBAUTHN_ORIGINS (npm start's web client). */
const ORIGIN = 'http://localhost:8080';

describe('passkey sign-ins and the limit on failed logins per address', () => {
  // Tight here; each test address is new, as counts per address outlive a platform in the shared test Redis.
  const { call } = usePlatform({
    bffLimits: { LIMIT_LOGIN_FAILURES_PER_ADDRESS: { points: 4, durationSeconds: 3600, blockSeconds: 3600 } },
  });
  const from = () => ({ 'x-forwarded-for': `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}` });

  it('counts failed passkey sign-ins as failed logins from the address', async () => {
    const signUp = await call('POST', `${USERS}/sign-up`, {
      body: { email: freshEmail(), password: 'correct horse battery' },
      headers: from(),
    });
    expect(signUp.status).toBe(201);
    const token = signUp.body.accessToken as string;
    const authenticator = new SoftAuthenticator(ORIGIN);
    const options = await call('POST', `${PASSKEYS}/registration-options`, { token });
    expect((await call('POST', `${PASSKEYS}/register`, { token, body: { response: authenticator.create(options.body) } })).status).toBe(
      201,
    );
    const requestOptions = async () => (await call('POST', `${PASSKEYS}/authentication-options`)).body;

    const blocked = from();
    for (let i = 0; i < 4; i += 1) {
      const foreign = authenticator.get(await requestOptions(), { origin: 'https://evil.example' });
      expect((await call('POST', `${PASSKEYS}/sign-in`, { body: { response: foreign }, headers: blocked })).status).toBe(401);
    }
    const honest = authenticator.get(await requestOptions());
    expect(await call('POST', `${PASSKEYS}/sign-in`, { body: { response: honest }, headers: blocked })).toMatchObject({
      status: 429,
      body: { message: expect.stringMatching(/^Too many failed logins from this address/) },
    });
    // Refused at the edge, the challenge was not spent: from another address the same answer signs in.
    expect((await call('POST', `${PASSKEYS}/sign-in`, { body: { response: honest }, headers: from() })).status).toBe(200);
  });
});
