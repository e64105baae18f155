// Passkeys in Debian's Chromium (playwright-core) against the whole platform:
// a person adds a passkey on the settings screen, logs out, and signs in with
// it from the sign-in screen. Chromium's virtual authenticator (DevTools
// protocol, WebAuthn domain) stands in for the device's screen lock.
//
// WebAuthn needs a secure context and an origin the user service expects
// (WEBAUTHN_ORIGINS): the page is opened on http://localhost:<port>, a TCP
// relay in this file to the test BFF (which listens on 127.0.0.1, a random
// port), and that origin is the user service's WEBAUTHN_ORIGINS.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { UserServiceConfig } from '../../services/user/src/config.js';
import { ensureWebBuild } from '../../web/build.js';
import { freshEmail, type PlatformOptions, usePlatform } from '../support/platform.js';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM } from '../support/browser.js';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'web-passkeys');

describe.skipIf(!HAS_CHROMIUM)('passkeys in a browser', () => {
  const webDir = ensureWebBuild();
  const user: Partial<UserServiceConfig> = {};
  const options: PlatformOptions = { webDir, user };
  let relay: Server;
  let origin = '';
  let bffPort = 0;
  // Before the platform starts (hooks run in order): the relay's port is the origin the user service expects.
  beforeAll(async () => {
    relay = createServer((client) => {
      const upstream = createConnection({ host: '127.0.0.1', port: bffPort });
      client.pipe(upstream).pipe(client);
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', close);
      upstream.on('error', close);
    });
    await new Promise<void>((resolve) => relay.listen(0, resolve));
    origin = `http://localhost:${(relay.address() as AddressInfo).port}`;
    user.WEBAUTHN_ORIGINS = [origin];
  });
  const { platform } = usePlatform(options);
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    bffPort = Number(new URL(platform().baseUrl).port);
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    // An address of its own for the BFF's limits per address (counts for 127.0.0.1 outlive a platform in the test Redis).
    const address = `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, extraHTTPHeaders: { 'x-forwarded-for': address } });
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`));
  }, 60_000);
  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail') return;
    await page?.screenshot({ path: join(ARTIFACTS, 'failure.png'), fullPage: true }).catch(() => {});
    console.log(problems);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => relay?.close(resolve));
  });

  /** The page's virtual authenticator: a platform authenticator with a screen lock the person always passes. */
  async function virtualAuthenticator(cdp: CDPSession): Promise<string> {
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
    return authenticatorId;
  }

  it('adds a passkey in settings and signs in with it after logging out', { timeout: 90_000 }, async () => {
    const cdp = await page.context().newCDPSession(page);
    const authenticatorId = await virtualAuthenticator(cdp);

    await page.goto(origin);
    await page.getByLabel('Email').fill(freshEmail());
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByLabel('Nickname').fill('Keyholder');
    await page.getByRole('button', { name: 'Sign up' }).last().click();
    await page.getByRole('heading', { name: 'Public rooms' }).waitFor();
    const signedUpAs = await page.evaluate(() => JSON.parse(localStorage.getItem('spinroom.session') ?? '{}').userUuid as string);

    await page.getByRole('link', { name: 'Settings' }).click();
    const passkeys = page.getByRole('region', { name: 'Passkeys' });
    await passkeys.getByText('No passkeys yet').waitFor();
    await passkeys.getByLabel('Passkey name').fill('Test laptop');
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
    await passkeys.getByRole('listitem').filter({ hasText: 'Test laptop' }).filter({ hasText: 'never used' }).waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('tab', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { name: 'Public rooms' }).waitFor();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('spinroom.session') ?? '{}').userUuid as string)).toBe(signedUpAs);
    // The authenticator signed once more, and the passkey shows its use.
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0]!.signCount).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Settings' }).click();
    await passkeys.getByRole('listitem').filter({ hasText: 'Test laptop' }).filter({ hasText: 'last used' }).waitFor();

    // Deleted, it is gone from the list; the sign-in screen's prompt then finds nothing the server accepts.
    await passkeys.getByRole('button', { name: 'Delete Test laptop' }).click();
    await passkeys.getByText('No passkeys yet').waitFor();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('tab', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('alert').filter({ hasText: 'Passkey sign-in failed' }).waitFor();
    expect(problems.filter((p) => p.startsWith('pageerror'))).toEqual([]);
  });
});
