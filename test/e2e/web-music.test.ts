// Getting music in two clicks (issue 15), in Debian's Chromium against the
// whole platform: with a public crate of two uploaded songs, a new person who
// enters a room with an empty stage has a song playing two clicks later ("Add
// to my queue: <crate>", then "Take a seat"), at a desktop's and a phone's
// width; adding the playing song again is flagged before anything is sent, and
// the queue marks the repeat; public crates show on the crates screen and are
// found by name; a verified upload goes to the queue from the upload screen.
// Screenshots go to test-artifacts/web/.
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@spinroom/platform/testing';
import { generateDemoSongs } from '../../scripts/seed/demo-songs.js';
import { ensureWebBuild } from '../../web/build.js';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM, openSignedIn, WEB_ARTIFACTS as ARTIFACTS } from '../support/browser.js';
import { freshEmail, usePlatform } from '../support/platform.js';

type Json = any;
/** Each play lasts this long (the room service's LIVE_MAX_PLAY_MS); the demo songs last 40 s. */
const PLAY_MS = 25_000;
// Every test catalogue reads upload-events from the start: names unique to this run.
const RUN = Math.random().toString(36).slice(2, 8);
const CRATE = `Two Click Songs ${RUN}`;
const TRACKS = [`Opening Night ${RUN}`, `Second Wind ${RUN}`];
const ARTIST = `Crate Band ${RUN}`;

describe.skipIf(!HAS_CHROMIUM)('getting music in a browser', () => {
  const webDir = ensureWebBuild();
  const { call, platform } = usePlatform({ webDir, room: { LIVE_MAX_PLAY_MS: PLAY_MS } });
  let browser: Browser;
  let songFiles: string[];
  const pages: Page[] = [];
  const problems: string[] = [];
  /** Every request each page sent, as "METHOD path?query". */
  const requests = new Map<Page, string[]>();

  const signUp = async () => {
    const res = await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } });
    expect(res.status).toBe(201);
    return { token: res.body.accessToken as string, userUuid: res.body.userUuid as string };
  };
  const upload = async (token: string, file: string, trackName: string) => {
    const form = new FormData();
    form.append('trackName', trackName);
    form.append('artistName', ARTIST);
    form.append('file', new Blob([new Uint8Array(readFileSync(file))], { type: 'audio/mpeg' }), 'song.mp3');
    const res = await fetch(`${platform().baseUrl}/api/upload-service/upload/song`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as Json).songId as string;
  };
  /** The catalogue's song for a verified upload, once upload-events has brought it. */
  const catalogued = (token: string, uploadId: string) =>
    eventually(
      async () => {
        const res = await call('GET', `/api/playlist-service/song-data/${uploadId}/uploadService`, { token });
        return res.status === 200 ? (res.body.songId as string) : undefined;
      },
      90_000,
      250,
    );
  const open = async (width: number, height: number) => {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    const sent: string[] = [];
    requests.set(page, sent);
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    page.on('request', (r) => {
      const url = new URL(r.url());
      sent.push(`${r.method()} ${url.pathname}${url.search}`);
    });
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`));
    pages.push(page);
    return page;
  };
  const roomFor = async (name: string) => {
    const owner = await signUp();
    const room = await call('POST', '/api/room-service/rooms/infrastructure', { token: owner.token, body: { name } });
    expect(room.status).toBe(201);
    return room.body as { slug: string };
  };

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    songFiles = (await generateDemoSongs(join(tmpdir(), 'spinroom-web-music-songs'))).slice(0, 3).map((s) => s.file);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    // Someone shares a crate of two songs they uploaded.
    const sharer = await signUp();
    const uploads = [await upload(sharer.token, songFiles[0]!, TRACKS[0]!), await upload(sharer.token, songFiles[1]!, TRACKS[1]!)];
    const songIds = [];
    for (const id of uploads) songIds.push(await catalogued(sharer.token, id));
    const crate = await call('POST', '/api/playlist-service/crate', { token: sharer.token, body: { crateName: CRATE, isPublic: true } });
    const added = await call('POST', `/api/playlist-service/crate/${crate.body.crateUuid}/songs`, {
      token: sharer.token,
      body: { songs: songIds.map((songId) => ({ songId })) },
    });
    expect(added.status).toBe(201);
  }, 180_000);
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    for (const [i, page] of pages.entries()) {
      await page.screenshot({ path: join(ARTIFACTS, `failure-music-${i}.png`), fullPage: true }).catch(() => {});
    }
    console.log(problems);
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A new person enters a room with an empty stage and plays a song in two clicks; answers the page and the clicks. */
  const twoClicks = async (width: number, height: number, label: string) => {
    const room = await roomFor(`Empty Stage ${label} ${RUN}`);
    const person = await signUp();
    const page = await open(width, height);
    await openSignedIn(page, platform().baseUrl, person, `#/room/${room.slug}`);
    await page.getByRole('toolbar', { name: 'Room controls' }).waitFor();
    await expect(page.getByTestId('now-title').count()).resolves.toBe(0);

    let clicks = 0;
    const click = async (target: Locator) => {
      clicks += 1;
      await target.click();
    };
    const offer = page.getByRole('button', { name: `Add to my queue: ${CRATE}` });
    await offer.waitFor();
    await page.screenshot({ path: join(ARTIFACTS, label === 'phone' ? 'music-offer-phone.png' : 'music-offer.png') });
    await click(offer);
    await page
      .getByRole('status')
      .filter({ hasText: `Songs from ${CRATE} are in your queue` })
      .waitFor();
    await click(page.getByRole('toolbar', { name: 'Room controls' }).getByRole('button', { name: 'Take a seat' }));

    // The crate's first song plays, audio included.
    await expect.poll(() => page.getByTestId('now-title').textContent(), { timeout: 15_000 }).toBe(TRACKS[0]);
    await expect
      .poll(() => page.getByTestId('room-audio').evaluate((a) => (a as unknown as { currentTime: number }).currentTime), {
        timeout: 20_000,
      })
      .toBeGreaterThan(0);
    expect(await page.getByTestId('room-audio').evaluate((a) => (a as unknown as { paused: boolean }).paused)).toBe(false);
    expect(clicks).toBe(2);
    return { page, person };
  };

  it('a new person plays a song two clicks after entering an empty room, and a duplicate add is flagged (desktop)', {
    timeout: 150_000,
  }, async () => {
    const { page } = await twoClicks(1280, 860, 'desktop');
    await page.screenshot({ path: join(ARTIFACTS, 'music-room.png') });

    // The playing song is in the queue already: adding it again asks first, and sends nothing until asked again.
    const sent = requests.get(page)!;
    const adds = () => sent.filter((r) => r.startsWith('POST /api/playlist-service/crate/special/queue/songs')).length;
    const playing = page.getByRole('region', { name: `The song playing: ${TRACKS[0]}` });
    await playing.getByRole('button', { name: `Add to queue: ${TRACKS[0]}` }).click();
    const warning = playing.getByRole('alert');
    await expect.poll(() => warning.textContent()).toContain(`${TRACKS[0]} is already in Your queue`);
    expect(adds()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'music-duplicate.png') });
    await warning.getByRole('button', { name: 'Add anyway' }).click();
    await playing
      .getByRole('status')
      .filter({ hasText: `${TRACKS[0]} is in Your queue` })
      .waitFor();
    expect(adds()).toBe(1);

    // The queue marks the repeat, beside the stage and on the crates screen.
    await page
      .getByRole('region', { name: 'Your queue' })
      .getByText(/Same song as #\d/)
      .waitFor();
    await page.goto(`${platform().baseUrl}/#/crates`);
    await page.getByRole('link', { name: /Your queue/ }).click();
    const queue = page.getByRole('list', { name: 'Your queue' });
    await expect.poll(() => queue.getByRole('listitem').count()).toBe(3);
    await expect.poll(() => queue.locator(`li[data-song="${TRACKS[0]}"] .duplicate-mark`).count()).toBe(1);
    await expect(queue.locator('.duplicate-mark').textContent()).resolves.toContain('Same song as #');
    expect(problems).toEqual([]);
  });

  it('at a phone: two clicks from an empty room to a song; public crates on the crates screen, found by name; an upload to the queue', {
    timeout: 180_000,
  }, async () => {
    const { page, person } = await twoClicks(390, 844, 'phone');
    await page.screenshot({ path: join(ARTIFACTS, 'music-room-phone.png') });

    // The crates screen offers the public crates while the search is empty, and finds them by name.
    for (const [p, name] of [
      [page, 'music-crates-phone.png'],
      [await open(1280, 860), 'music-crates.png'],
    ] as const) {
      if (p !== page) await openSignedIn(p, platform().baseUrl, person, '#/crates');
      else await p.goto(`${platform().baseUrl}/#/crates`);
      const offered = p.getByRole('region', { name: 'Public crates' });
      await offered.getByRole('button', { name: `Add to my queue: ${CRATE}` }).waitFor();
      await p.screenshot({ path: join(ARTIFACTS, name), fullPage: true });
    }
    await page.getByRole('searchbox', { name: 'Search' }).fill(`click songs ${RUN}`);
    const found = page.getByRole('region', { name: 'Crates', exact: true });
    await found.getByRole('button', { name: `Songs: ${CRATE}` }).click();
    await found.getByRole('button', { name: `Grab: ${TRACKS[1]}` }).waitFor();
    // Every song of it is in the queue already: the one click says so.
    await found.getByRole('button', { name: `Add to my queue: ${CRATE}` }).click();
    await found
      .getByRole('status')
      .filter({ hasText: `Every song of ${CRATE} is already in your queue` })
      .waitFor();

    // An upload, once verified, goes to the queue from the upload screen.
    const mine = `Phone Take ${RUN}`;
    const uploadId = await upload(person.token, songFiles[2]!, mine);
    await catalogued(person.token, uploadId);
    await page.goto(`${platform().baseUrl}/#/upload`);
    await page.getByRole('button', { name: `Add to my queue: ${mine}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `${mine} is in Your queue` })
      .waitFor();
    const queue = await call('GET', '/api/playlist-service/crate/special/queue/songs', { token: person.token });
    expect(queue.body.songs.map((s: Json) => s.trackName)).toContain(mine);
    expect(problems).toEqual([]);
  });
});
