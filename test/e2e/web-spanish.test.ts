// The web client in Spanish, in Debian's Chromium (playwright-core) against the
// whole platform: `?lang=es` sets the page's language from the start, and a
// coded server refusal (a wrong password: USER_BAD_CREDENTIALS) shows the
// Spanish dictionary's text instead of the server's English. Launch and
// platform as in web-client.test.ts.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../web/build.js';
import { freshEmail, usePlatform } from '../support/platform.js';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM } from '../support/browser.js';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'web');
const PASSWORD = 'correct horse battery';

describe.skipIf(!HAS_CHROMIUM)('the web client in Spanish', () => {
  const webDir = ensureWebBuild();
  const { call, platform } = usePlatform({ webDir });
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await (await browser.newContext({ viewport: { width: 1024, height: 800 } })).newPage();
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  }, 60_000);
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') {
      await page.screenshot({ path: join(ARTIFACTS, 'failure-spanish.png'), fullPage: true }).catch(() => {});
      console.log(problems);
    }
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('is in Spanish from the start and shows a wrong password in Spanish', { timeout: 60_000 }, async () => {
    const email = freshEmail();
    expect((await call('POST', '/api/user-service/users/sign-up', { body: { email, password: PASSWORD } })).status).toBe(201);

    await page.goto(`${platform().baseUrl}/?lang=es#/login`);
    await page.getByRole('button', { name: 'Correo y contraseña', exact: true }).click();
    // The page says it is Spanish before anyone touches a language control.
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('es');

    const form = page.getByRole('form', { name: 'Correo y contraseña' });
    await form.getByLabel('Correo').fill(email);
    await form.getByLabel('Contraseña').fill('not the password');
    await form.getByRole('button', { name: 'Iniciar sesión' }).click();
    const alert = form.getByRole('alert');
    await alert.filter({ hasText: 'Correo o contraseña incorrectos' }).waitFor();
    await expect(alert.textContent()).resolves.toBe('Correo o contraseña incorrectos');

    // The right password signs in: the lobby is in Spanish too.
    await form.getByLabel('Contraseña').fill(PASSWORD);
    await form.getByRole('button', { name: 'Iniciar sesión' }).click();
    await page.getByRole('heading', { name: 'Salas públicas' }).waitFor();
    await expect(page.getByRole('navigation', { name: 'Principal' }).count()).resolves.toBe(1);
    expect(problems).toEqual([]);
  });
});
