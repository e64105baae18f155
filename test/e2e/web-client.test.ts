// The web client in Debian's Chromium (playwright-core) against the whole
// platform: two people sign up, one uploads and DJs a demo song, the other
// hears it at the same position, votes, they chat both ways, and a crate
// reorder survives a reload. Screenshots of the lobby and a live room are
// kept in test-artifacts/web/ (git-ignored).
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@spinroom/platform/testing';
import { generateDemoSongs } from '../../scripts/seed/demo-songs.js';
import { ensureWebBuild } from '../../web/build.js';
import { freshEmail, usePlatform } from '../support/platform.js';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM } from '../support/browser.js';

export const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'web');
/** Each play lasts this long (the room service's LIVE_MAX_PLAY_MS); the demo songs last 40 s. */
const PLAY_MS = 25_000;
// Tests share one Kafka, and every new catalogue reads upload-events from the start: names unique to this run
// keep searches from finding songs uploaded by earlier runs (whose files are gone).
const RUN = Math.random().toString(36).slice(2, 8);
const FIRST = `First Light ${RUN}`;
const SECOND = `Night Bus ${RUN}`;
const ARTIST = `House Band ${RUN}`;

describe.skipIf(!HAS_CHROMIUM)('the web client in a browser', () => {
  const webDir = ensureWebBuild();
  const { platform } = usePlatform({ webDir, room: { LIVE_MAX_PLAY_MS: PLAY_MS } });
  let browser: Browser;
  let ana: Page;
  let bo: Page;
  const problems: string[] = [];
  let songFiles: string[];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    songFiles = (await generateDemoSongs(join(tmpdir(), 'spinroom-web-e2e-songs'))).slice(0, 2).map((s) => s.file);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const page = async (width: number, height: number) => {
      const p = await (await browser.newContext({ viewport: { width, height } })).newPage();
      p.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      p.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
      p.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`));
      return p;
    };
    ana = await page(1280, 860);
    bo = await page(390, 844); // a phone
  }, 60_000);
  afterEach(async (context) => {
    // A failed test leaves both screens behind for whoever reads the failure.
    if (context.task.result?.state !== 'fail') return;
    await ana?.screenshot({ path: join(ARTIFACTS, 'failure-ana.png'), fullPage: true }).catch(() => {});
    await bo?.screenshot({ path: join(ARTIFACTS, 'failure-bo.png'), fullPage: true }).catch(() => {});
    console.log(problems);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const signUp = async (page: Page, nickname: string) => {
    await page.goto(platform().baseUrl);
    await page.getByLabel('Email').fill(freshEmail());
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByLabel('Nickname').fill(nickname);
    await page.getByRole('button', { name: 'Sign up' }).last().click();
    await page.getByRole('heading', { name: 'Public rooms' }).waitFor();
  };
  const tokenOf = async (page: Page) =>
    JSON.parse((await page.evaluate(() => localStorage.getItem('spinroom.session'))) ?? '{}').token as string;
  const uploadThroughApi = async (token: string, file: string, trackName: string) => {
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
  };
  /** Waits until the catalogue (fed through upload-events) finds every one of these songs. */
  const searchable = (token: string, q: string, trackNames: string[]) =>
    eventually(
      async () => {
        const res = await fetch(`${platform().baseUrl}/api/playlist-service/search?q=${encodeURIComponent(q)}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const found = new Set(((await res.json()) as { songs?: Array<{ trackName: string }> }).songs?.map((s) => s.trackName));
        return trackNames.every((name) => found.has(name)) ? true : undefined;
      },
      60_000,
      250,
    );
  const progress = (page: Page) => page.getByRole('progressbar', { name: 'Song progress' });

  it('two people meet in a room: one DJs an upload, the other hears it in sync, votes and chats', { timeout: 180_000 }, async () => {
    await signUp(ana, 'Ana');
    await signUp(bo, 'Bo');

    // Ana uploads a song on the upload screen and watches it get verified.
    await ana.getByRole('link', { name: 'Upload' }).click();
    await ana.getByLabel('Audio file').setInputFiles(songFiles[0]!);
    await ana.getByLabel('Track name').fill(FIRST);
    await ana.getByLabel('Artist').fill(ARTIST);
    await ana.getByRole('button', { name: 'Upload' }).click();
    await ana.locator('[data-status="VERIFIED"]').first().waitFor({ timeout: 60_000 });
    const anaToken = await tokenOf(ana);
    await searchable(anaToken, FIRST, [FIRST]);

    // ... finds it in search and puts it in her queue.
    await ana.getByRole('link', { name: 'Crates' }).click();
    await ana.getByRole('searchbox', { name: 'Search' }).fill(FIRST);
    await ana.getByRole('button', { name: `Add to queue: ${FIRST}` }).click();
    await ana.getByRole('status').filter({ hasText: FIRST }).waitFor();

    // Ana opens a room; Bo finds it in the lobby.
    await ana.getByRole('link', { name: 'Lobby' }).click();
    await ana.getByLabel('Room name').fill('Ana Live');
    await ana.getByLabel('Design').selectOption('FESTIVAL');
    await ana.getByRole('button', { name: 'Create' }).click();
    await ana.getByRole('toolbar', { name: 'Room controls' }).waitFor();
    await bo.reload();
    await bo.screenshot({ path: join(ARTIFACTS, 'lobby-phone.png'), fullPage: true });
    await ana.goto(`${platform().baseUrl}/#/`);
    await ana
      .getByRole('link', { name: /Ana Live/ })
      .first()
      .waitFor();
    await ana.screenshot({ path: join(ARTIFACTS, 'lobby.png'), fullPage: true });
    await ana
      .getByRole('link', { name: /Ana Live/ })
      .first()
      .click();
    await bo
      .getByRole('link', { name: /Ana Live/ })
      .first()
      .click();
    await bo.getByRole('toolbar', { name: 'Room controls' }).waitFor();
    await ana.getByRole('button', { name: 'Ana', exact: true }).waitFor();
    await ana.getByRole('button', { name: 'Bo', exact: true }).waitFor();

    // Ana takes a seat: her song plays for both, at the same position, audio included.
    await ana.getByRole('button', { name: 'Take a seat' }).click();
    for (const page of [ana, bo]) await expect.poll(() => page.getByTestId('now-title').textContent(), { timeout: 15_000 }).toBe(FIRST);
    const audioTime = (page: Page) =>
      page.getByTestId('room-audio').evaluate((a) => ({
        time: (a as unknown as { currentTime: number }).currentTime,
        paused: (a as unknown as { paused: boolean }).paused,
      }));
    await expect.poll(async () => (await audioTime(bo)).time, { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(async () => (await audioTime(ana)).time, { timeout: 20_000 }).toBeGreaterThan(0);
    const [anaAt, boAt, boAudio, anaAudio] = await Promise.all([
      progress(ana).getAttribute('data-position'),
      progress(bo).getAttribute('data-position'),
      audioTime(bo),
      audioTime(ana),
    ]);
    expect(Math.abs(Number(anaAt) - Number(boAt))).toBeLessThan(1);
    expect(boAudio.paused).toBe(false);
    expect(Math.abs(boAudio.time - anaAudio.time)).toBeLessThan(1);
    expect(Math.abs(boAudio.time - Number(boAt))).toBeLessThan(1);

    // Bo votes; both see the count.
    await bo.getByRole('button', { name: /Awesome/ }).click();
    for (const page of [ana, bo]) await expect.poll(() => page.getByTestId('likes').textContent()).toBe('1');

    // Chat both ways.
    await ana.getByLabel('Message').fill('hello from Ana');
    await ana.getByRole('button', { name: 'Send' }).click();
    await bo.getByText('hello from Ana').waitFor();
    await bo.getByLabel('Message').fill('hi @Ana, great song');
    await bo.getByRole('button', { name: 'Send' }).click();
    await ana.getByText(/great song/).waitFor();
    await ana.getByRole('button', { name: 'Jump' }).click();
    await ana.waitForTimeout(300);
    await ana.screenshot({ path: join(ARTIFACTS, 'live-room.png') });
    await bo.screenshot({ path: join(ARTIFACTS, 'live-room-phone.png'), fullPage: true });
    expect(problems).toEqual([]);
  });

  it('a crate reorder survives a reload', { timeout: 120_000 }, async () => {
    const token = await tokenOf(ana);
    await uploadThroughApi(token, songFiles[1]!, SECOND);
    await searchable(token, ARTIST, [FIRST, SECOND]);
    await ana.goto(`${platform().baseUrl}/#/crates`);
    await ana.getByRole('button', { name: /New crate/ }).click();
    await ana.getByRole('link', { name: /New Playlist #1/ }).click();
    await ana.getByRole('searchbox', { name: 'Search' }).fill(ARTIST);
    await ana.getByRole('button', { name: `Add to New Playlist #1: ${FIRST}` }).click();
    await ana.getByRole('status').filter({ hasText: FIRST }).waitFor();
    await ana.getByRole('button', { name: `Add to New Playlist #1: ${SECOND}` }).click();
    await ana.getByRole('status').filter({ hasText: SECOND }).waitFor();
    const order = () => ana.locator('ol.songs li').evaluateAll((items) => items.map((li) => li.getAttribute('data-song')));
    await expect.poll(order).toEqual([FIRST, SECOND]);
    // Drag the second song above the first.
    await ana.locator(`ol.songs li[data-song="${SECOND}"]`).dragTo(ana.locator(`ol.songs li[data-song="${FIRST}"]`));
    await expect.poll(order).toEqual([SECOND, FIRST]);
    await ana.waitForLoadState('networkidle');
    await ana.reload();
    await expect.poll(order, { timeout: 10_000 }).toEqual([SECOND, FIRST]);
    expect(problems).toEqual([]);
  });
});
