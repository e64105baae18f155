import { createHmac, generateKeyPairSync } from 'node:crypto';
import { importSPKI, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { freshEmail, usePlatform } from '../support/platform.js';

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('sign-up, login and session through the BFF', () => {
  const { call } = usePlatform();

  it('signs up, rejects the same email again, logs in and reads the session', async () => {
    const email = freshEmail();
    const signUp = await call('POST', '/api/user-service/users/sign-up', { body: { email, password: 'correct horse battery' } });
    expect(signUp.status).toBe(201);
    expect(signUp.body).toEqual({ accessToken: expect.any(String), userUuid: expect.stringMatching(/^[0-9a-f-]{36}$/) });

    const again = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: email.toUpperCase(), password: 'another good one' },
    });
    expect(again).toMatchObject({
      status: 403,
      body: { statusCode: 403, message: 'This email is already registered', error: 'Forbidden', code: 'USER_EMAIL_TAKEN' },
    });

    const login = await call('POST', '/api/user-service/auth/login', { body: { email, password: 'correct horse battery' } });
    expect(login.status).toBe(200);
    expect(login.body.userUuid).toBe(signUp.body.userUuid);

    const session = await call('GET', '/api/user-service/auth/session', { token: login.body.accessToken });
    expect(session).toMatchObject({ status: 200, body: { userUuid: signUp.body.userUuid, kind: 'user', roles: ['user'] } });
  });

  it('answers the spec messages for bad credentials and missing fields, with a code where a client translates them', async () => {
    const email = freshEmail();
    await call('POST', '/api/user-service/users/sign-up', { body: { email, password: 'correct horse battery' } });
    const wrong = await call('POST', '/api/user-service/auth/login', { body: { email, password: 'wrong horse battery' } });
    expect(wrong).toMatchObject({ status: 401, body: { statusCode: 401, message: 'Incorrect email or password', error: 'Unauthorized' } });
    // The code comes from the user service over gRPC (the error-code trailer) to the BFF's answer.
    expect(wrong.body.code).toBe('USER_BAD_CREDENTIALS');
    const unknown = await call('POST', '/api/user-service/auth/login', {
      body: { email: freshEmail(), password: 'correct horse battery' },
    });
    expect(unknown.body).toMatchObject({ message: 'Incorrect email or password', code: 'USER_BAD_CREDENTIALS' });
    const missing = await call('POST', '/api/user-service/auth/login', { body: { email } });
    expect(missing).toMatchObject({ status: 400, body: { statusCode: 400, error: 'Bad Request' } });
    // Refusals without a code answer none (the client shows their message as it is).
    expect(missing.body).not.toHaveProperty('code');
    const noPassword = await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail() } });
    expect(noPassword).toMatchObject({ status: 400, body: { message: 'Sign-up requires email and password' } });
    expect(noPassword.body).not.toHaveProperty('code');
    const short = await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'short' } });
    expect(short).toMatchObject({ status: 400, body: { message: 'Password must be between 8 and 128 characters' } });
    const common = await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'password123' } });
    expect(common).toMatchObject({
      status: 400,
      body: { message: 'This password is too common, please choose another one', code: 'USER_PASSWORD_TOO_COMMON' },
    });
    const badEmail = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: 'not-an-email', password: 'correct horse battery' },
    });
    expect(badEmail).toMatchObject({ status: 400, body: { message: 'email must be an email' } });
    const wrongType = await call('POST', '/api/user-service/users/sign-up', { body: { email: 42, password: 'correct horse battery' } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toEqual([expect.stringMatching(/^email: /)]);
  });

  it('refuses sessions without a token, with a forged one, alg none or an HMAC made from the public key', async () => {
    const { body: grant } = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: freshEmail(), password: 'correct horse battery' },
    });
    const unauthorized = { status: 401, body: { statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' } };
    expect(await call('GET', '/api/user-service/auth/session')).toMatchObject(unauthorized);
    expect(await call('GET', '/api/user-service/auth/session', { token: 'garbage' })).toMatchObject(unauthorized);

    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 3072 });
    const forged = await new SignJWT({ role: 'admin', capabilities: [] })
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject(grant.userUuid)
      .setIssuer('spinroom')
      .setExpirationTime('1h')
      .sign(privateKey);
    expect(await call('GET', '/api/user-service/auth/session', { token: forged })).toMatchObject(unauthorized);

    const claims = { sub: grant.userUuid, role: 'admin', capabilities: [], iss: 'spinroom', exp: Math.floor(Date.now() / 1000) + 600 };
    const none = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`;
    expect(await call('GET', '/api/user-service/auth/session', { token: none })).toMatchObject(unauthorized);

    const { body: key } = await call('GET', '/api/user-service/auth/pub-key');
    const unsigned = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(claims)}`;
    const hmac = createHmac('sha256', key.publicKey).update(unsigned).digest('base64url');
    expect(await call('GET', '/api/user-service/auth/session', { token: `${unsigned}.${hmac}` })).toMatchObject(unauthorized);
  });

  it('publishes a public key that verifies the tokens alone', async () => {
    const { body: grant } = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: freshEmail(), password: 'correct horse battery' },
    });
    const { status, body } = await call('GET', '/api/user-service/auth/pub-key');
    expect(status).toBe(200);
    expect(body.publicKey).toContain('-----BEGIN PUBLIC KEY-----');
    const { payload, protectedHeader } = await jwtVerify(grant.accessToken, await importSPKI(body.publicKey, 'RS256'));
    expect(protectedHeader).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
    expect(payload).toMatchObject({ sub: grant.userUuid, role: 'user', capabilities: [], iss: 'spinroom' });
  });

  it('gives guests a ghost session and profile', async () => {
    const guest = await call('GET', '/api/user-service/auth/guest');
    expect(guest.status).toBe(200);
    const session = await call('GET', '/api/user-service/auth/session', { token: guest.body.accessToken });
    expect(session.body).toEqual({ userUuid: guest.body.userUuid, kind: 'guest', roles: ['guest'] });
    const profile = await call('GET', '/api/user-service/users/profile', { token: guest.body.accessToken });
    expect(profile.body).toMatchObject({
      uuid: guest.body.userUuid,
      nickname: expect.stringMatching(/^ghost-\d+$/),
      avatarId: 'ghost',
      color: '#FFFFFF',
    });
    const edit = await call('POST', '/api/user-service/users/profile', { token: guest.body.accessToken, body: { nickname: 'me' } });
    expect(edit).toMatchObject({ status: 403, body: { message: 'Guests cannot edit a profile' } });
  });
});
