import { describe, expect, it } from 'vitest';
import { codeIn, linkTokenIn, mailbox, mailpitUrl } from '../support/mailpit.js';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';

const USERS = '/api/user-service/users';
const AUTH = '/api/user-service/auth';
const PASSWORD = 'correct horse battery';
const RESEND_INTERVAL_SECONDS = 2;

/** Every mail these tests read went through SMTP to Mailpit and is read back through its API (test/support/mailpit.ts). */
describe('emails, magic links and passwords through the BFF, with the mail Mailpit caught', () => {
  const { call } = usePlatform({ user: { MAIL_RESEND_INTERVAL_SECONDS: RESEND_INTERVAL_SECONDS } });

  async function signUp(password = PASSWORD) {
    const email = freshEmail();
    const inbox = mailbox(email);
    const res = await call('POST', `${USERS}/sign-up`, { body: { email, password } });
    expect(res.status).toBe(201);
    return { email, inbox, token: res.body.accessToken as string, userUuid: res.body.userUuid as string };
  }

  async function signUpVerified(password = PASSWORD) {
    const account = await signUp(password);
    const verified = await call('POST', `${USERS}/emails/verify`, {
      token: account.token,
      body: { code: codeIn(await account.inbox.next()) },
    });
    expect(verified.status).toBe(200);
    return account;
  }

  it('signs up with a pending email, mails its code, and verifies it with the code from the mail', async () => {
    const { email, inbox, token } = await signUp();
    const mail = await inbox.next();
    expect(mail).toMatchObject({ to: [email], from: 'no-reply@spinroom.local', subject: 'Your Spinroom verification code' });
    const code = codeIn(mail);
    expect(mail.html).toContain(code);

    const before = await call('GET', `${USERS}/emails`, { token });
    expect(before).toMatchObject({ status: 200, body: [{ email, type: 'personal', status: 'PENDING_VERIFICATION', verifiedAt: null }] });

    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await call('POST', `${USERS}/emails/verify`, { token, body: { code: wrongCode } });
    expect(wrong).toMatchObject({
      status: 403,
      body: { statusCode: 403, message: 'Email verification failed, incorrect code', error: 'Forbidden', code: 'USER_EMAIL_CODE_WRONG' },
    });

    const right = await call('POST', `${USERS}/emails/verify`, { token, body: { code } });
    expect(right).toMatchObject({
      status: 200,
      body: { status: 'VERIFIED', email: { email, status: 'VERIFIED', verifiedAt: expect.any(String) } },
    });
    const again = await call('POST', `${USERS}/emails/verify`, { token, body: { code } });
    expect(again.body.message).toBe('Email verification failed, incorrect code');

    const resend = await call('POST', `${USERS}/emails/verification-email`, { token, body: { email } });
    expect(resend).toMatchObject({ status: 403, body: { message: 'This email is verified', code: 'USER_EMAIL_VERIFIED' } });
    const unknown = await call('POST', `${USERS}/emails/verification-email`, { token, body: { email: freshEmail() } });
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Email not found' } });
  });

  it('adds, resends no sooner than the interval, verifies through the deprecated alias, and deletes addresses', async () => {
    const owner = await signUp();
    const other = await signUp();
    const extra = freshEmail();
    const extraInbox = mailbox(extra);

    const added = await call('POST', `${USERS}/emails`, { token: owner.token, body: { email: extra, type: 'work' } });
    expect(added).toMatchObject({ status: 201, body: { email: extra, type: 'work', status: 'PENDING_VERIFICATION' } });
    const firstCode = codeIn(await extraInbox.next());

    const taken = await call('POST', `${USERS}/emails`, { token: other.token, body: { email: extra, type: 'personal' } });
    expect(taken).toMatchObject({ status: 403, body: { message: 'This email is already registered' } });
    const othersSignIn = await call('POST', `${USERS}/emails`, { token: owner.token, body: { email: other.email } });
    expect(othersSignIn).toMatchObject({ status: 403, body: { message: 'This email is already registered' } });
    const badType = await call('POST', `${USERS}/emails`, { token: owner.token, body: { email: freshEmail(), type: 'secret' } });
    expect(badType.status).toBe(400);

    const tooSoon = await call('POST', `${USERS}/emails/verification-email`, { token: owner.token, body: { email: extra } });
    expect(tooSoon).toMatchObject({
      status: 403,
      body: { message: 'The minimum time has not yet elapsed since the last e-mail was sent', code: 'USER_EMAIL_TOO_SOON' },
    });
    await new Promise((resolve) => setTimeout(resolve, RESEND_INTERVAL_SECONDS * 1000 + 200));
    const resent = await call('POST', `${USERS}/emails/verification-email`, { token: owner.token, body: { email: extra } });
    expect(resent).toMatchObject({ status: 200, body: {} });
    const secondCode = codeIn(await extraInbox.next());

    // The new code replaces the old one; the alias verifies as /emails/verify does.
    if (secondCode !== firstCode) {
      const old = await call('POST', `${USERS}/confirm-email`, { token: owner.token, body: { code: firstCode } });
      expect(old.status).toBe(403);
    }
    const confirmed = await call('POST', `${USERS}/confirm-email`, { token: owner.token, body: { code: secondCode } });
    expect(confirmed).toMatchObject({ status: 200, body: { status: 'VERIFIED', email: { email: extra, type: 'work' } } });
    // Proven by an account, an address is not another's to sign up with.
    const proven = await call('POST', `${USERS}/sign-up`, { body: { email: extra, password: PASSWORD } });
    expect(proven).toMatchObject({ status: 403, body: { message: 'This email is already registered' } });

    const list = await call('GET', `${USERS}/emails`, { token: owner.token });
    expect(list.body.map((e: { email: string; status: string }) => [e.email, e.status])).toEqual([
      [owner.email, 'PENDING_VERIFICATION'],
      [extra, 'VERIFIED'],
    ]);
    const signInId = list.body[0].id;
    const extraId = list.body[1].id;

    const notTheirs = await call('DELETE', `${USERS}/emails/${extraId}`, { token: other.token });
    expect(notTheirs).toMatchObject({ status: 404, body: { message: 'Email not found' } });
    const signIn = await call('DELETE', `${USERS}/emails/${signInId}`, { token: owner.token });
    expect(signIn).toMatchObject({ status: 403, body: { message: 'The email you sign in with can not be deleted' } });
    const deleted = await call('DELETE', `${USERS}/emails/${extraId}`, { token: owner.token });
    expect(deleted).toMatchObject({ status: 200, body: {} });
    expect((await call('GET', `${USERS}/emails`, { token: owner.token })).body).toHaveLength(1);
    const twice = await call('DELETE', `${USERS}/emails/${extraId}`, { token: owner.token });
    expect(twice.status).toBe(404);

    // Deleted, the address is free for another account.
    const reused = await call('POST', `${USERS}/emails`, { token: other.token, body: { email: extra, type: 'personal' } });
    expect(reused.status).toBe(201);
  });

  it('stops taking codes after five wrong ones, until a new code is sent', async () => {
    const { inbox, token } = await signUp();
    const code = codeIn(await inbox.next());
    const wrong = String((Number(code) + 500_000) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i += 1) {
      expect((await call('POST', `${USERS}/emails/verify`, { token, body: { code: wrong } })).status).toBe(403);
    }
    const right = await call('POST', `${USERS}/emails/verify`, { token, body: { code } });
    expect(right).toMatchObject({ status: 403, body: { message: 'Email verification failed, incorrect code' } });
  });

  it('signs in with a magic link once; an unknown address gets an account, and may set a password', async () => {
    const { email, inbox, userUuid } = await signUp();
    await inbox.next(); // the sign-up's code
    const unknown = freshEmail();
    const unknownInbox = mailbox(unknown);

    const known = await call('GET', `${AUTH}/magic-link?email=${encodeURIComponent(email)}`);
    const stranger = await call('GET', `${AUTH}/magic-link?email=${encodeURIComponent(unknown)}`);
    expect(known).toMatchObject({ status: 200, body: {} });
    expect(stranger.status).toBe(known.status);
    expect(stranger.body).toEqual(known.body);

    const mail = await inbox.next();
    expect(mail.subject).toBe('Your Spinroom sign-in link');
    const { url, token } = linkTokenIn(mail);
    expect(url.pathname).toBe('/');
    expect(url.hash).toBe(`#/magic-link/${token}`);
    const grant = await call('POST', `${AUTH}/validate-magic-link`, { body: { token } });
    expect(grant).toMatchObject({ status: 200, body: { userUuid, accessToken: expect.any(String) } });
    const session = await call('GET', `${AUTH}/session`, { token: grant.body.accessToken });
    expect(session.body.userUuid).toBe(userUuid);
    const reused = await call('POST', `${AUTH}/validate-magic-link`, { body: { token } });
    expect(reused).toMatchObject({ status: 401, body: { message: 'This link is invalid or has expired', code: 'USER_LINK_INVALID' } });
    // Opening the link proved the address.
    const emails = await call('GET', `${USERS}/emails`, { token: grant.body.accessToken });
    expect(emails.body[0]).toMatchObject({ email, status: 'VERIFIED' });

    const created = await call('POST', `${AUTH}/validate-magic-link`, { body: { token: linkTokenIn(await unknownInbox.next()).token } });
    expect(created.status).toBe(200);
    expect(created.body.userUuid).not.toBe(userUuid);
    const newToken = created.body.accessToken;
    expect((await call('GET', `${USERS}/emails`, { token: newToken })).body).toMatchObject([{ email: unknown, status: 'VERIFIED' }]);
    const noPassword = await call('POST', `${AUTH}/login`, { body: { email: unknown, password: PASSWORD } });
    expect(noPassword.status).toBe(401);
    const set = await call('POST', `${USERS}/set-password`, { token: newToken, body: { password: PASSWORD } });
    expect(set).toMatchObject({ status: 200, body: {} });
    const login = await call('POST', `${AUTH}/login`, { body: { email: unknown, password: PASSWORD } });
    expect(login).toMatchObject({ status: 200, body: { userUuid: created.body.userUuid } });
    const setAgain = await call('POST', `${USERS}/set-password`, { token: newToken, body: { password: 'another fine password' } });
    expect(setAgain).toMatchObject({ status: 403, body: { message: 'A password is already set' } });

    const forged = await call('POST', `${AUTH}/validate-magic-link`, { body: { token: 'x'.repeat(43) } });
    expect(forged.status).toBe(401);
  });

  it('resets a forgotten password through the mailed link, once, and ends the earlier sessions', async () => {
    const { email, inbox, token: before } = await signUp();
    await inbox.next(); // the sign-up's code

    const forgot = await call('POST', `${USERS}/forgot-password`, { body: { email } });
    const nobody = await call('POST', `${USERS}/forgot-password`, { body: { email: freshEmail() } });
    expect(forgot).toMatchObject({ status: 200, body: {} });
    expect(nobody.status).toBe(forgot.status);
    expect(nobody.body).toEqual(forgot.body);

    const mail = await inbox.next();
    expect(mail.subject).toBe('Reset your Spinroom password');
    const { url, token } = linkTokenIn(mail);
    expect(url.pathname).toBe('/');
    expect(url.hash).toBe(`#/reset-password/${token}`);

    // A refused password does not spend the link.
    const common = await call('POST', `${USERS}/reset-password`, { body: { token, newPassword: 'password123' } });
    expect(common).toMatchObject({ status: 400, body: { message: 'This password is too common, please choose another one' } });
    const same = await call('POST', `${USERS}/reset-password`, { body: { token, newPassword: PASSWORD } });
    expect(same).toMatchObject({
      status: 400,
      body: { message: 'New password must be different from your previous password', code: 'USER_PASSWORD_UNCHANGED' },
    });
    const reset = await call('POST', `${USERS}/reset-password`, { body: { token, newPassword: 'a brand new passphrase' } });
    expect(reset).toMatchObject({ status: 200, body: {} });
    const reused = await call('POST', `${USERS}/reset-password`, { body: { token, newPassword: 'yet another passphrase' } });
    expect(reused).toMatchObject({
      status: 403,
      body: { statusCode: 403, message: 'Can not reset password', error: 'Forbidden', code: 'USER_PASSWORD_RESET_REFUSED' },
    });
    const forged = await call('POST', `${USERS}/reset-password`, {
      body: { token: 'y'.repeat(43), newPassword: 'yet another passphrase' },
    });
    expect(forged).toMatchObject({ status: 403, body: { message: 'Can not reset password' } });

    expect((await call('GET', `${AUTH}/session`, { token: before })).status).toBe(401);
    expect((await call('POST', `${AUTH}/login`, { body: { email, password: PASSWORD } })).status).toBe(401);
    const login = await call('POST', `${AUTH}/login`, { body: { email, password: 'a brand new passphrase' } });
    expect(login.status).toBe(200);
    // The link reached the mailbox: the address is proven.
    expect((await call('GET', `${USERS}/emails`, { token: login.body.accessToken })).body[0].status).toBe('VERIFIED');
  });

  it('changes a password with the spec messages, ends the earlier sessions and answers a new token', async () => {
    const unverified = await signUp();
    const notVerified = await call('POST', `${USERS}/change-password`, {
      token: unverified.token,
      body: { email: unverified.email, password: PASSWORD, newPassword: 'a brand new passphrase' },
    });
    expect(notVerified).toMatchObject({ status: 401, body: { message: 'Email address is not verified', code: 'USER_EMAIL_NOT_VERIFIED' } });

    const { email, token } = await signUpVerified();
    const change = (body: object) => call('POST', `${USERS}/change-password`, { token, body });
    expect(await change({ email, password: 'not the password', newPassword: 'a brand new passphrase' })).toMatchObject({
      status: 401,
      body: { statusCode: 401, message: 'Incorrect email or password', error: 'Unauthorized' },
    });
    expect((await change({ email: unverified.email, password: PASSWORD, newPassword: 'a brand new passphrase' })).body.message).toBe(
      'Incorrect email or password',
    );
    expect(await change({ email, password: PASSWORD, newPassword: PASSWORD })).toMatchObject({
      status: 400,
      body: { message: 'New password must be different from your previous password' },
    });
    const changed = await change({ email, password: PASSWORD, newPassword: 'a brand new passphrase' });
    expect(changed).toMatchObject({ status: 200, body: { accessToken: expect.any(String) } });

    expect((await call('GET', `${AUTH}/session`, { token })).status).toBe(401);
    expect((await call('GET', `${AUTH}/session`, { token: changed.body.accessToken })).status).toBe(200);
    expect((await call('POST', `${AUTH}/login`, { body: { email, password: 'a brand new passphrase' } })).status).toBe(200);
  });

  it('documents the paths, the old confirm-email as deprecated', async () => {
    const { body } = await call('GET', '/api/openapi.json');
    expect(body.paths['/api/user-service/users/confirm-email'].post.deprecated).toBe(true);
    expect(body.paths['/api/user-service/users/emails/verify'].post.deprecated).toBeUndefined();
    for (const path of ['/users/change-password', '/users/forgot-password', '/users/reset-password', '/users/set-password']) {
      expect(body.paths[`/api/user-service${path}`].post).toBeDefined();
    }
  });

  it("serves Mailpit's web inbox with its built app (a plain `go install` of Mailpit lacks it)", async () => {
    const res = await fetch(`${mailpitUrl()}/dist/app.js`);
    expect(res.status).toBe(200);
    expect((await res.text()).length).toBeGreaterThan(100_000);
  });

  it('lets admins, and only admins, set a password', async () => {
    const user = await signUp();
    const body = { userUuid: user.userUuid, newPassword: 'set by the admin now' };
    const byUser = await call('POST', `${USERS}/change-password-admin`, { token: user.token, body });
    expect(byUser.status).toBe(403);
    const admin = await signedToken('admin');
    const unknown = await call('POST', `${USERS}/change-password-admin`, {
      token: admin,
      body: { ...body, userUuid: crypto.randomUUID() },
    });
    expect(unknown).toMatchObject({ status: 404, body: { message: 'User profile not found' } });
    const byAdmin = await call('POST', `${USERS}/change-password-admin`, { token: admin, body });
    expect(byAdmin).toMatchObject({ status: 200, body: {} });
    expect((await call('GET', `${AUTH}/session`, { token: user.token })).status).toBe(401);
    expect((await call('POST', `${AUTH}/login`, { body: { email: user.email, password: 'set by the admin now' } })).status).toBe(200);
  });

  it('takes the address of an account an admin created as given: CREATED_BY_ADMIN, no code mailed', async () => {
    const email = freshEmail();
    const created = await call('POST', `${USERS}/admin/sign-up`, {
      token: await signedToken('admin'),
      body: { email, password: PASSWORD },
    });
    expect(created.status).toBe(201);
    const login = await call('POST', `${AUTH}/login`, { body: { email, password: PASSWORD } });
    const token = login.body.accessToken;
    expect((await call('GET', `${USERS}/emails`, { token })).body).toMatchObject([{ email, status: 'CREATED_BY_ADMIN' }]);
    const resend = await call('POST', `${USERS}/emails/verification-email`, { token, body: { email } });
    expect(resend).toMatchObject({ status: 403, body: { message: 'This email is verified' } });
    // As good as verified: the password can be changed.
    const change = await call('POST', `${USERS}/change-password`, {
      token,
      body: { email, password: PASSWORD, newPassword: 'my own passphrase' },
    });
    expect(change.status).toBe(200);
    expect(await mailbox(email).count()).toBe(0);
  });
});
