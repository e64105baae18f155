// An axe-core scan (@axe-core/playwright) of the landing page, the lobby, the
// token shop, the ranking and a live room (its consumables' list open too) in Debian's Chromium, at desktop and phone widths (issue 15): no
// serious or critical violation of WCAG 2.1 A and AA. Each finding is printed
// with its rule, impact and the elements it names.
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../web/build.js';
import { freshEmail, usePlatform } from '../support/platform.js';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM, openSignedIn } from '../support/browser.js';

const WIDTHS = [
  ['desktop', 1280, 860],
  ['phone', 390, 844],
] as const;

/** Serious and critical findings, one line each. */
async function findings(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe.skipIf(!HAS_CHROMIUM)('accessibility of the main screens (axe-core)', () => {
  const webDir = ensureWebBuild();
  const { call, platform } = usePlatform({ webDir });
  let browser: Browser;

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  const signedIn = async (width: number, height: number, hash: string) => {
    const signUp = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: freshEmail(), password: 'a long enough passphrase 7', nickname: 'Axe Tester' },
    });
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    await openSignedIn(
      page,
      platform().baseUrl,
      { token: signUp.body.accessToken as string, userUuid: signUp.body.userUuid as string },
      hash,
    );
    return { page, token: signUp.body.accessToken as string };
  };

  for (const [label, width, height] of WIDTHS) {
    it(`finds nothing serious on the landing page (${label})`, { timeout: 60_000 }, async () => {
      const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
      await page.goto(platform().baseUrl);
      await page.getByRole('heading', { name: 'Listen together, live' }).waitFor();
      expect(await findings(page)).toEqual([]);
    });

    it(`finds nothing serious in the lobby (${label})`, { timeout: 60_000 }, async () => {
      const { page } = await signedIn(width, height, '#/');
      await page.getByRole('heading', { name: 'Public rooms' }).waitFor();
      expect(await findings(page)).toEqual([]);
    });

    it(`finds nothing serious in the token shop (${label})`, { timeout: 60_000 }, async () => {
      const { page } = await signedIn(width, height, '#/shop');
      await page.getByRole('heading', { name: 'Token shop' }).waitFor();
      await page.getByTestId('shop-balance').waitFor();
      expect(await findings(page)).toEqual([]);
    });

    it(`finds nothing serious on the ranking page (${label})`, { timeout: 60_000 }, async () => {
      const { page } = await signedIn(width, height, '#/ranking');
      await page.getByRole('heading', { name: 'Ranking' }).waitFor();
      expect(await findings(page)).toEqual([]);
    });

    it(`finds nothing serious in a live room (${label})`, { timeout: 60_000 }, async () => {
      const owner = await call('POST', '/api/user-service/users/sign-up', {
        body: { email: freshEmail(), password: 'a long enough passphrase 7' },
      });
      const room = await call('POST', '/api/room-service/rooms/infrastructure', {
        token: owner.body.accessToken,
        body: { name: `Axe Room ${label}`, design: 'FESTIVAL' },
      });
      const { page } = await signedIn(width, height, `#/room/${room.body.slug}`);
      await page.getByRole('toolbar', { name: 'Room controls' }).waitFor();
      expect(await findings(page)).toEqual([]);
      // The consumables' list beside the chat, open.
      await page.getByRole('button', { name: 'Use a consumable' }).click();
      await page.getByRole('dialog', { name: 'Use a consumable in this room' }).getByTestId('picker-balance').waitFor();
      expect(await findings(page)).toEqual([]);
    });
  }
});
