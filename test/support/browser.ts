// Debian's Chromium for the browser tests (playwright-core drives it; it
// cannot download a browser of its own here): where it is, how it is launched
// on these machines, and how a test opens a page as someone already signed in.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The browser tests are skipped on a machine without it. */
export const HAS_CHROMIUM = existsSync(CHROMIUM);
/** Screenshots a reviewer can look at (git-ignored). */
export const WEB_ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'web');

/**
 * Flags that work on these machines (../shared/MACHINE-NOTES.md), plus
 * autoplay, muted: nobody clicks "turn on sound" here.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--autoplay-policy=no-user-gesture-required',
  '--mute-audio',
];

/** Opens `hash` as someone signed in: their session written where the web client keeps it, then the page loaded again with it. */
export async function openSignedIn(page: Page, baseUrl: string, who: { token: string; userUuid: string }, hash = '#/'): Promise<void> {
  await page.goto(baseUrl);
  await page.evaluate((session) => localStorage.setItem('spinroom.session', JSON.stringify(session)), {
    token: who.token,
    userUuid: who.userUuid,
    isLoggedIn: true,
    audioQuality: 'medium',
  });
  await page.goto(`${baseUrl}/${hash}`);
  await page.reload(); // a change of the fragment alone does not load the page again
}
