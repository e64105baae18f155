// Guests in Debian's Chromium against the whole platform (issue 15): a guest
// looks into a room, is told why the seat, votes and chat are off, signs up
// from the room and is back in it, now able to take a seat. Screenshots at a
// phone's and a desktop's width go to test-artifacts/web/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../web/build.js';
import { freshEmail, usePlatform } from '../support/platform.js';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM, WEB_ARTIFACTS as ARTIFACTS } from '../support/browser.js';

describe.skipIf(!HAS_CHROMIUM)('guests in a browser', () => {
  const webDir = ensureWebBuild();
  const { call, platform } = usePlatform({ webDir });
  let browser: Browser;
  const pages: Page[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') {
      for (const [i, page] of pages.entries()) {
        await page.screenshot({ path: join(ARTIFACTS, `failure-guest-${i}.png`), fullPage: true }).catch(() => {});
      }
      console.log(problems);
    }
  });
  afterAll(async () => {
    await browser?.close();
  });

  const open = async (width: number, height: number) => {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('response', (r) => r.status() >= 500 && problems.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`));
    pages.push(page);
    return page;
  };

  const roomOf = async (name: string) => {
    const owner = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: freshEmail(), password: 'a long enough passphrase 7' },
    });
    expect(owner.status).toBe(201);
    const room = await call('POST', '/api/room-service/rooms/infrastructure', { token: owner.body.accessToken, body: { name } });
    expect(room.status).toBe(201);
    return room.body as { slug: string; name: string };
  };

  for (const [label, width, height] of [
    ['phone', 390, 844],
    ['desktop', 1280, 860],
  ] as const) {
    it(`looks into a room, sees why the seat is off, signs up from it and is back in it (${label})`, { timeout: 90_000 }, async () => {
      const room = await roomOf(`Guest House ${label} ${Math.random().toString(36).slice(2, 6)}`);
      const page = await open(width, height);
      await page.goto(platform().baseUrl);
      await page.getByRole('button', { name: 'Browse as a guest' }).click();
      await page.getByRole('heading', { name: 'Public rooms' }).waitFor();
      // A guest's header offers a way in, not a way out.
      const header = page.getByRole('banner');
      await header.getByRole('button', { name: 'Sign up' }).waitFor();
      await expect(header.getByRole('button', { name: 'Log out' }).count()).resolves.toBe(0);

      await page.goto(`${platform().baseUrl}/#/room/${room.slug}`);
      const controls = page.getByRole('toolbar', { name: 'Room controls' });
      const seat = controls.getByRole('button', { name: 'Take a seat' });
      await seat.waitFor();
      expect(await seat.isDisabled()).toBe(true);
      // The disabled seat says why: its description is the guest note.
      const why = await seat.getAttribute('aria-describedby');
      expect(why).toBeTruthy();
      await expect(page.locator(`#${why}`).textContent()).resolves.toContain('listening as a guest');
      await page.screenshot({ path: join(ARTIFACTS, `guest-room-${label}.png`), fullPage: true });

      await controls.getByRole('button', { name: 'Sign up to join in' }).click();
      const form = page.getByRole('form', { name: 'Sign up' });
      await form.getByLabel('Email').fill(freshEmail());
      await form.getByLabel('Password').fill('correct horse battery');
      await form.getByLabel('Nickname').fill(`Newcomer ${label}`);
      await form.getByRole('button', { name: 'Sign up' }).click();

      // Back in the same room, signed in: the seat is theirs to take.
      await seat.waitFor();
      expect(new URL(page.url()).hash).toBe(`#/room/${room.slug}`);
      await expect.poll(() => seat.isEnabled()).toBe(true);
      await header.getByRole('button', { name: 'Log out' }).waitFor();
      await expect(page.locator('.guest-prompt').count()).resolves.toBe(0);
      expect(problems).toEqual([]);
    });
  }
});
