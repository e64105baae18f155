// The landing page, the lobby's cards and leaving, in Debian's Chromium
// against the whole platform (issue 15): a visitor without an account sees
// the live rooms with what plays and looks into one as a guest; a signed-in
// person's lobby card names the DJ; someone who leaves a room is off the
// floor for the others within a second. Screenshots go to test-artifacts/web/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../web/build.js';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, usePlatform } from '../support/platform.js';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM, openSignedIn, WEB_ARTIFACTS as ARTIFACTS } from '../support/browser.js';

const RUN = Math.random().toString(36).slice(2, 7);

describe.skipIf(!HAS_CHROMIUM)('the landing page, the lobby and leaving, in a browser', () => {
  const webDir = ensureWebBuild();
  const { call, platform } = usePlatform({ webDir, room: { LIVE_LEAVE_GRACE_MS: 20_000 } });
  let browser: Browser;
  const pages: Page[] = [];
  const listeners: FeedListener[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') {
      for (const [i, page] of pages.splice(0).entries())
        await page.screenshot({ path: join(ARTIFACTS, `failure-lobby-${i}.png`), fullPage: true }).catch(() => {});
      console.log(problems);
    }
    for (const l of listeners.splice(0)) l.close();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const open = async (width = 1280, height = 860) => {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('response', (r) => r.status() >= 500 && problems.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`));
    pages.push(page);
    return page;
  };
  const person = async (nickname: string) => {
    const body = (
      await call('POST', '/api/user-service/users/sign-up', {
        body: { email: freshEmail(), password: 'a long enough passphrase 7', nickname },
      })
    ).body as { accessToken: string; userUuid: string };
    return { token: body.accessToken, uuid: body.userUuid, nickname };
  };
  const signIn = (page: Page, who: { token: string; uuid: string }, hash = '#/') =>
    openSignedIn(page, platform().baseUrl, { token: who.token, userUuid: who.uuid }, hash);
  /** A room whose DJ plays a song of their queue (provider songs: nobody needs to hear them here). */
  const liveRoom = async (name: string, track: string) => {
    const owner = await person(`Owner ${RUN}`);
    const dj = await person(`Deejay ${RUN}`);
    const room = (await call('POST', '/api/room-service/rooms/infrastructure', { token: owner.token, body: { name } })).body;
    const queued = await call('POST', '/api/playlist-service/crate/special/queue/songs', {
      token: dj.token,
      body: {
        songs: [
          { musicProvider: 'spotify', songId: `lobby-${RUN}-${track.length}`, trackName: track, artistName: `Band ${RUN}`, duration: 240 },
        ],
        append: true,
      },
    });
    expect(queued.status).toBeLessThan(300);
    const listener = await FeedListener.join(platform().baseUrl, dj.token, dj.uuid, room.uuid);
    listeners.push(listener);
    await listener.action('addDj');
    await listener.until((s) => s.nowPlaying?.song?.trackName === track, `${track} playing`);
    return { room, owner, dj };
  };

  it('shows a visitor the live rooms with what plays, and lets them look into one as a guest', { timeout: 90_000 }, async () => {
    const track = `Landing Light ${RUN}`;
    const { room } = await liveRoom(`Landing Live ${RUN}`, track);
    for (const [label, width, height] of [
      ['phone', 390, 844],
      ['desktop', 1280, 860],
    ] as const) {
      const page = await open(width, height);
      await page.goto(platform().baseUrl);
      const live = page.getByRole('region', { name: 'Live now' });
      const card = live.getByRole('listitem').filter({ hasText: room.name });
      await card.getByText(track).waitFor();
      await card.getByText('A DJ is playing').waitFor();
      await page.getByRole('heading', { name: 'Listen together, live' }).waitFor();
      await page.screenshot({ path: join(ARTIFACTS, `landing-${label}.png`), fullPage: true });
      if (label === 'desktop') {
        await card.getByRole('link').click();
        await page.getByRole('toolbar', { name: 'Room controls' }).waitFor();
        expect(new URL(page.url()).hash).toBe(`#/room/${room.slug}`);
        await page.locator('.guest-prompt').waitFor();
      }
    }
    expect(problems).toEqual([]);
  });

  it("names the DJ on a signed-in person's lobby card, busiest rooms first", { timeout: 90_000 }, async () => {
    const track = `Lobby Lamp ${RUN}`;
    const { room, dj } = await liveRoom(`Lobby Live ${RUN}`, track);
    const viewer = await person(`Viewer ${RUN}`);
    const page = await open();
    await signIn(page, viewer);
    const card = page.getByRole('region', { name: 'Public rooms' }).getByRole('listitem').filter({ hasText: room.name });
    await card.getByText(`${dj.nickname} is playing`).waitFor();
    await card.getByText(track).waitFor();
    await card.getByText('1 person').waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'lobby-cards.png'), fullPage: true });
    expect(problems).toEqual([]);
  });

  it('takes someone who presses Leave room off the floor for the others within a second', { timeout: 90_000 }, async () => {
    const owner = await person(`Host ${RUN}`);
    const walker = await person(`Walker ${RUN}`);
    const room = (await call('POST', '/api/room-service/rooms/infrastructure', { token: owner.token, body: { name: `Leaving ${RUN}` } }))
      .body;
    const watcher = await FeedListener.join(platform().baseUrl, owner.token, owner.uuid, room.uuid);
    listeners.push(watcher);
    const page = await open();
    await signIn(page, walker, `#/room/${room.slug}`);
    await page.getByRole('toolbar', { name: 'Room controls' }).waitFor();
    await watcher.until((s) => !!s.allUserData[walker.uuid], 'the walker in the room');
    await page.getByRole('link', { name: 'Leave room' }).click();
    const leftAt = Date.now();
    await watcher.until((s) => !s.allUserData[walker.uuid], 'the walker gone');
    // The room's grace period here is 20 s: gone within a second means the leave was taken as one.
    expect(Date.now() - leftAt).toBeLessThan(1_000);
    expect(problems).toEqual([]);
  });
});
