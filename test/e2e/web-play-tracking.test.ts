// Play tracking from a real browser session (issue 18, Tests and figures): a
// signed-in listener's Chromium hears an upload played past 30 s (the demo
// songs last 40 s) and its client reports the 15-second, 30-second and total
// events to /kinesis; the audit service's consumer counts them from Kafka into
// the aggregates, once each. (Counting exactly once across a SIGKILL of the
// consumer's process is services/audit/test/aggregate-restart.test.ts.)
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditServiceClient } from '@spinroom/contracts/audit/v1/audit';
import { createGrpcClient } from '@spinroom/platform';
import { eventually } from '@spinroom/platform/testing';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SONG_SECONDS, generateDemoSongs, songBlob } from '../../scripts/seed/demo-songs.js';
import { ensureWebBuild } from '../../web/build.js';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM, openSignedIn, WEB_ARTIFACTS as ARTIFACTS } from '../support/browser.js';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';

type Json = any;
const RUN = Math.random().toString(36).slice(2, 8);

describe.skipIf(!HAS_CHROMIUM)('play tracking from a browser', () => {
  const webDir = ensureWebBuild();
  // The whole demo song plays: past the 30-second mark for a listener who joined a few seconds late.
  const { platform } = usePlatform({ webDir, room: { LIVE_MAX_PLAY_MS: DEMO_SONG_SECONDS * 1000 } });
  let browser: Browser;
  let dj: FeedListener | undefined;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);
  afterAll(async () => {
    dj?.close();
    await browser?.close();
  });

  const call = async (method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${platform().baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const person = async (nickname: string) => {
    const res = await fetch(`${platform().baseUrl}/api/user-service/users/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: freshEmail(), password: 'a long enough passphrase 7', nickname }),
    });
    const body = (await res.json()) as Json;
    expect(res.status).toBe(201);
    return { token: body.accessToken as string, userUuid: body.userUuid as string };
  };
  const totalsOf = async (songId: string) => {
    const client = createGrpcClient(AuditServiceClient, platform().grpc.audit);
    try {
      return (await client.getPlayTotals({ scope: 'song', key: songId }, { token: await signedToken('admin') })).totals!;
    } finally {
      client.close();
    }
  };

  it('reports a song heard past 30 s, and the aggregates count its 15 s, 30 s and total once', { timeout: 180_000 }, async () => {
    const deejay = await person(`Deejay ${RUN}`);
    const listener = await person(`Listener ${RUN}`);

    // The DJ's song: a demo upload, verified and in the catalogue, in their queue.
    const [demo] = await generateDemoSongs(join(tmpdir(), 'spinroom-play-tracking-songs'));
    const trackName = `Tracked ${RUN}`;
    const form = new FormData();
    form.append('trackName', trackName);
    form.append('artistName', `Counted ${RUN}`);
    form.append('file', songBlob(demo!), 'song.mp3');
    const uploaded = await fetch(`${platform().baseUrl}/api/upload-service/upload/song`, {
      method: 'POST',
      headers: { authorization: `Bearer ${deejay.token}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const songId: string = await eventually(
      async () => {
        const found = await call('GET', `/api/playlist-service/search?q=${encodeURIComponent(trackName)}`, deejay.token);
        return found.body?.songs?.find((s: Json) => s.trackName === trackName)?.songId;
      },
      60_000,
      250,
    );
    const queued = await call('POST', '/api/playlist-service/crate/special/queue/songs', deejay.token, {
      songs: [{ songId }],
      append: true,
    });
    expect(queued.status).toBe(201);
    const room = (await call('POST', '/api/room-service/rooms/infrastructure', deejay.token, { name: `Tracked Room ${RUN}` })).body;

    // The listener is in the room, signed in, before the song starts.
    const page: Page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`));
    const reported: Json[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/audit-service/kinesis')) reported.push(r.postDataJSON());
    });
    await openSignedIn(page, platform().baseUrl, listener, `#/room/${room.slug}`);
    await page.getByRole('toolbar', { name: 'Room controls' }).waitFor();

    dj = await FeedListener.join(platform().baseUrl, deejay.token, deejay.userUuid, room.uuid);
    await dj.action('addDj');
    await dj.until((s) => s.nowPlaying?.song?.songId === songId, 'the upload playing');
    await expect.poll(() => page.getByTestId('heard-on').textContent(), { timeout: 20_000 }).toMatch(/Playing/);

    // The song plays to its end; the listener's client has reported all three events by then.
    const events = () => reported.filter((r) => r.record.songInfo.songId === songId).map((r) => r.record.event);
    await expect
      .poll(events, { timeout: (DEMO_SONG_SECONDS + 20) * 1000, interval: 1000 })
      .toEqual(['played15Sec', 'played30Sec', 'totalPlayed']);
    const total = reported.find((r) => r.record.event === 'totalPlayed').record;
    expect(total).toMatchObject({
      userUuid: listener.userUuid,
      djUuid: deejay.userUuid,
      roomSlug: room.slug,
      userProvider: 'uploadService',
    });

    // Through Kafka into the aggregates, each event counted once.
    const counted = await eventually(
      async () => {
        const totals = await totalsOf(songId);
        return totals.totalPlayed === 1 && totals.fifteenSecondPlays === 1 && totals.thirtySecondPlays === 1 ? totals : undefined;
      },
      30_000,
      250,
    );
    const heardSeconds = (Date.parse(total.updatedDate) - Date.parse(total.startedDate)) / 1000;
    expect(counted.playedSeconds).toBe(Math.round(heardSeconds));
    expect(heardSeconds).toBeGreaterThan(25);
    expect(problems).toEqual([]);
  });
});
