// The sign-in screens in Debian's Chromium (playwright-core) against the whole
// platform, Mailpit and the Twilio stand-in: sign up and verify the address
// with the mailed code, reset a forgotten password and sign in with a magic
// link through the mailed links, sign in with a phone code; each refusal shows
// the server's message. Launch and platform as in web-client.test.ts.
import { mkdirSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../web/build.js';
import { codeIn, linkTokenIn, mailbox } from '../support/mailpit.js';
import { freshEmail, usePlatform } from '../support/platform.js';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM } from '../support/browser.js';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'web');
const PASSWORD = 'correct horse battery';

let phones = 0;
/** A mobile number of the stand-in no other test uses. */
function freshPhone(): string {
  phones += 1;
  return `+1415${String(randomInt(200, 1000))}${String((Date.now() + phones) % 10_000).padStart(4, '0')}`;
}

describe.skipIf(!HAS_CHROMIUM)('the sign-in screens in a browser', () => {
  const webDir = ensureWebBuild();
  const { call, platform } = usePlatform({ webDir });
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);
  beforeEach(async () => {
    // A fresh context per test: nobody is signed in, nothing is stored.
    problems.length = 0;
    context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    // The refusals these tests provoke are logged by Chromium as failed loads; anything else is a problem.
    page.on(
      'console',
      (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && problems.push(`console: ${m.text()}`),
    );
    page.on('response', (r) => r.status() >= 500 && problems.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`));
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') {
      await page
        .screenshot({ path: join(ARTIFACTS, `failure-accounts-${ctx.task.name.slice(0, 30).replace(/\W+/g, '-')}.png`), fullPage: true })
        .catch(() => {});
      console.log(problems);
    }
    await context.close();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const logInTab = async (method: 'Phone code' | 'Email and password' | 'Email link') => {
    await page.goto(`${platform().baseUrl}/#/login`);
    await page.getByRole('button', { name: method, exact: true }).click();
    return page.getByRole('form', { name: method });
  };
  const inTheLobby = () => page.getByRole('heading', { name: 'Public rooms' }).waitFor();
  const signedInAs = async () =>
    JSON.parse((await page.evaluate(() => localStorage.getItem('spinroom.session'))) ?? '{}') as {
      userUuid?: string;
      isLoggedIn?: boolean;
    };

  it('signs up and verifies the address with the code Mailpit caught', { timeout: 60_000 }, async () => {
    const email = freshEmail();
    const inbox = mailbox(email);
    await page.goto(platform().baseUrl);
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByLabel('Nickname').fill('Vera');
    await form.getByRole('button', { name: 'Sign up' }).click();
    await inTheLobby();

    const card = page.getByRole('form', { name: 'Verify your email' });
    await card.getByText(email).waitFor();
    // Too soon for another mail: the server's 403, word for word.
    await card.getByRole('button', { name: 'Mail me a new code' }).click();
    await card.getByRole('alert').filter({ hasText: 'The minimum time has not yet elapsed since the last e-mail was sent' }).waitFor();

    const code = codeIn(await inbox.next());
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await card.getByLabel('Verification code').fill(wrong);
    await card.getByRole('button', { name: 'Verify' }).click();
    await card.getByRole('alert').filter({ hasText: 'Email verification failed, incorrect code' }).waitFor();
    await card.getByLabel('Verification code').fill(code);
    await card.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('status').filter({ hasText: 'Your email is verified.' }).waitFor();
    await expect(card.count()).resolves.toBe(0);

    const { accessToken } = (await call('POST', '/api/user-service/auth/login', { body: { email, password: PASSWORD } })).body;
    const addresses = await call('GET', '/api/user-service/users/emails', { token: accessToken });
    expect(addresses.body).toMatchObject([{ email, status: 'VERIFIED' }]);
    expect(problems).toEqual([]);
  });

  it('resets a forgotten password through the mailed link, then logs in with it', { timeout: 60_000 }, async () => {
    const email = freshEmail();
    const inbox = mailbox(email);
    expect((await call('POST', '/api/user-service/users/sign-up', { body: { email, password: PASSWORD } })).status).toBe(201);
    await inbox.next(); // the sign-up's code

    await logInTab('Email and password');
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    const forgot = page.getByRole('form', { name: 'Reset your password' });
    await forgot.getByLabel('Email').fill(email);
    await forgot.getByRole('button', { name: 'Email me a reset link' }).click();
    await forgot.getByRole('status').waitFor();

    // The mailed link is the client's hash route; opened on this BFF (the test's WEB_URL is the default).
    const { url, token } = linkTokenIn(await inbox.next());
    expect(url.hash).toBe(`#/reset-password/${token}`);
    await page.goto(`${platform().baseUrl}/${url.hash}`);
    const reset = page.getByRole('form', { name: 'Choose a new password' });
    // A refused password shows the server's message and does not spend the link.
    await reset.getByLabel('New password').fill(PASSWORD);
    await reset.getByRole('button', { name: 'Save the new password' }).click();
    await reset.getByRole('alert').filter({ hasText: 'New password must be different from your previous password' }).waitFor();
    await reset.getByLabel('New password').fill('a brand new passphrase');
    await reset.getByRole('button', { name: 'Save the new password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password is changed.' }).waitFor();
    await page.getByRole('button', { name: 'Log in' }).click();
    expect(new URL(page.url()).hash).toBe('#/login');

    await page.getByRole('tab', { name: 'Log in', selected: true }).waitFor();

    // Used once: the same link, opened again from the mail in a new tab, now refuses.
    const again = await context.newPage();
    await again.goto(`${platform().baseUrl}/${url.hash}`);
    const resetAgain = again.getByRole('form', { name: 'Choose a new password' });
    await resetAgain.getByLabel('New password').fill('yet another passphrase');
    await resetAgain.getByRole('button', { name: 'Save the new password' }).click();
    await resetAgain.getByRole('alert').filter({ hasText: 'Can not reset password' }).waitFor();
    await again.close();

    const form = await logInTab('Email and password');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill('a brand new passphrase');
    await form.getByRole('button', { name: 'Log in' }).click();
    await inTheLobby();
    expect(new URL(page.url()).hash).toBe('#/');
    expect(problems).toEqual([]);
  });

  it('a wrong password shows the server message; a magic link signs in once', { timeout: 60_000 }, async () => {
    const email = freshEmail();
    const inbox = mailbox(email);
    const signUp = await call('POST', '/api/user-service/users/sign-up', { body: { email, password: PASSWORD } });
    await inbox.next(); // the sign-up's code

    const form = await logInTab('Email and password');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill('not the password');
    await form.getByRole('button', { name: 'Log in' }).click();
    await form.getByRole('alert').filter({ hasText: 'Incorrect email or password' }).waitFor();

    const linkForm = await logInTab('Email link');
    await linkForm.getByLabel('Email').fill(email);
    await linkForm.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await linkForm.getByRole('status').waitFor();
    const { url } = linkTokenIn(await inbox.next());
    await page.goto(`${platform().baseUrl}/${url.hash}`);
    await inTheLobby();
    expect(await signedInAs()).toMatchObject({ userUuid: signUp.body.userUuid, isLoggedIn: true });
    // The token left the address bar and the history.
    expect(new URL(page.url()).hash).toBe('#/');

    await page.goto(`${platform().baseUrl}/${url.hash}`);
    await page.getByRole('alert').filter({ hasText: 'This link is invalid or has expired' }).waitFor();
    expect(problems).toEqual([]);
  });

  it('signs in with a phone code sent by the Twilio stand-in', { timeout: 60_000 }, async () => {
    // From the sign-up tab too: a new number gets a new account.
    await page.goto(platform().baseUrl);
    await page.getByRole('button', { name: 'Use a phone number instead' }).click();
    let form = page.getByRole('form', { name: 'Phone code' });
    // A VoIP number is refused with spec 002's message.
    await form.getByLabel('Phone number').fill('+12025550143');
    await form.getByRole('button', { name: 'Send code' }).click();
    await form.getByRole('alert').filter({ hasText: 'Phone number is invalid. Only real, non-VoIP mobile numbers are allowed.' }).waitFor();

    const phone = freshPhone();
    await form.getByLabel('Phone number').fill(phone);
    await form.getByLabel('WhatsApp').check();
    await form.getByRole('button', { name: 'Send code' }).click();
    await form.getByRole('status').filter({ hasText: phone }).waitFor();
    expect(platform().twilio.requests.some((r) => r.form.get('To') === phone && r.form.get('Channel') === 'whatsapp')).toBe(true);
    const code = platform().twilio.lastCode(phone)!;
    await form.getByLabel('Code').fill(code === '000000' ? '111111' : '000000');
    await form.getByRole('button', { name: 'Log in' }).click();
    await form.getByRole('alert').filter({ hasText: 'The code is incorrect or has expired' }).waitFor();
    await form.getByLabel('Code').fill(code);
    await form.getByRole('button', { name: 'Log in' }).click();
    await inTheLobby();
    const first = await signedInAs();
    expect(first.isLoggedIn).toBe(true);

    // The same number again signs in the same account.
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    form = await logInTab('Phone code');
    await form.getByLabel('Phone number').fill(phone);
    await form.getByRole('button', { name: 'Send code' }).click();
    await form.getByRole('status').waitFor();
    await form.getByLabel('Code').fill(platform().twilio.lastCode(phone)!);
    await form.getByRole('button', { name: 'Log in' }).click();
    await inTheLobby();
    expect((await signedInAs()).userUuid).toBe(first.userUuid);
    expect(problems).toEqual([]);
  });
});
