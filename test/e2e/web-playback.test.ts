// Playback across providers in Debian's Chromium against the whole platform
// (issue 20): each listener hears the room's song on their own provider. The
// web client loads each provider's SDK from its real address; the browser's
// requests for those addresses go to local stand-ins that implement each SDK's
// public interface and the providers' endpoints (test/support/playback-stand-ins.ts),
// so every adapter's own code runs: load, sign in, play at the room's position,
// seek on drift, pause, switch provider, an expired token, a missing song. The
// catalogue's providers are the playlist service's stand-ins; the links are made
// through the OAuth stand-ins. Screenshots go to test-artifacts/web/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { eventually } from '@spinroom/platform/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../web/build.js';
import { FeedListener } from '../support/feed-client.js';
import { TEST_APPLE_MUSIC } from '../support/oauth-stand-ins.js';
import { PlaybackStandIns } from '../support/playback-stand-ins.js';
import { startProviderStandIns } from '../support/provider-stand-ins.js';
import { freshEmail, startPlatform, type TestPlatform } from '../support/platform.js';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM, openSignedIn, WEB_ARTIFACTS as ARTIFACTS } from '../support/browser.js';

type Json = any;
const RUN = Math.random().toString(36).slice(2, 7);
const P = '/api/playlist-service';
const U = '/api/user-service';

describe.skipIf(!HAS_CHROMIUM)('playback across providers, in a browser', () => {
  const webDir = ensureWebBuild();
  let providers: Awaited<ReturnType<typeof startProviderStandIns>>;
  let playback: PlaybackStandIns;
  let platform: TestPlatform;
  let browser: Browser;
  const pages: Page[] = [];
  const listeners: FeedListener[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    providers = await startProviderStandIns();
    playback = await PlaybackStandIns.start(providers.oauth, TEST_APPLE_MUSIC);
    // The catalogue signs 7digital's stream links for its real address, which the browser's requests reach through `playback`.
    const providerEnv = { ...providers.env, SEVEN_DIGITAL_STREAM_URL: 'https://stream.svc.7digital.net' };
    platform = await startPlatform({ webDir, providerEnv, user: providers.user });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 240_000);
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') {
      for (const [i, page] of pages.entries())
        await page.screenshot({ path: join(ARTIFACTS, `failure-playback-${i}.png`), fullPage: true }).catch(() => {});
      console.log(problems, playback.requests.slice(-40));
    }
  });
  afterAll(async () => {
    for (const l of listeners) l.close();
    await browser?.close();
    await platform?.stop();
    await playback?.close();
    await providers?.close();
  });

  const call = async (method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${platform.baseUrl}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const person = async (nickname: string) => {
    const res = await call('POST', `${U}/users/sign-up`, undefined, {
      email: freshEmail(),
      password: 'a long enough passphrase 7',
      nickname,
    });
    expect(res.status).toBe(201);
    return { token: res.body.accessToken as string, userUuid: res.body.userUuid as string, nickname };
  };
  const open = async (width = 1280, height = 860) => {
    const context = await browser.newContext({ viewport: { width, height } });
    await playback.route(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('response', (r) => r.status() >= 500 && problems.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`));
    pages.push(page);
    return page;
  };
  /** One catalogue song known on several providers: each provider's song added (the catalogue merges them by ISRC). */
  const catalogueSong = async (
    token: string,
    song: { trackName: string; artistName: string; duration: number; isrc: string },
    ids: Record<string, string>,
  ) => {
    let songId = '';
    for (const [musicProvider, id] of Object.entries(ids)) {
      const added = await call('POST', `${P}/crate/special/likes/songs`, token, {
        songs: [{ ...song, musicProvider, songId: id }],
        append: true,
      });
      expect(added.status).toBe(201);
      songId = added.body.songs[0].songId;
    }
    const [known] = (await call('GET', `${P}/song-data/service?ids=${songId}`, token)).body.songs;
    expect(Object.keys(known.musicProviders).sort()).toEqual(Object.keys(ids).sort());
    return songId;
  };
  const heardOn = (page: Page) => page.getByTestId('heard-on');
  /** A position (seconds) and when it was read (ms, this machine's clock: the pages share it). */
  type Reading = [seconds: number | undefined, at: number];
  /** Seconds into the song each listener's player is, each reading brought to one moment (the players run in real time). */
  const positionsNow = async (reads: Array<() => Promise<Reading>>) => {
    const readings: Reading[] = [];
    for (const read of reads) readings.push(await read());
    const t = Date.now();
    return readings.map(([seconds, at]) => {
      expect(seconds).toBeDefined();
      return seconds! + (t - at) / 1000;
    });
  };
  /** What a page reported to the audit service's /kinesis (play tracking), with the status of each answer. */
  type Reported = { status: number; topic: string; record: Json };
  const kinesisOf = (page: Page) => {
    const reported: Reported[] = [];
    page.on('response', (response) => {
      if (!response.url().endsWith('/api/audit-service/kinesis')) return;
      reported.push({ status: response.status(), ...(response.request().postDataJSON() as Omit<Reported, 'status'>) });
    });
    return reported;
  };
  const inPage = (page: Page, expression: string) => page.evaluate<Reading>(`[${expression}, Date.now()]`);

  it('plays one song to three listeners on Apple Music, Spotify and YouTube in sync, then switches, refreshes, falls back and stops a guest', {
    timeout: 240_000,
  }, async () => {
    const owner = await person(`Owner ${RUN}`);
    const dj = await person(`Deejay ${RUN}`);
    const ana = await person(`Ana ${RUN}`);
    const bo = await person(`Bo ${RUN}`);

    // Ana links Apple Music (her Music User Token), Bo links Spotify (an authorization code's return).
    const anaMusicUserToken = `apple-mut-${RUN}`;
    playback.appleUserTokens.add(anaMusicUserToken);
    expect((await call('POST', `${U}/apple/user-token`, ana.token, { userToken: anaMusicUserToken })).status).toBe(201);
    const redirectUri = `${platform.baseUrl}/`;
    const code = providers.oauth.issueCode('spotify', redirectUri);
    expect((await call('POST', `${U}/spotify/exchange-code`, bo.token, { code, redirectUri })).status).toBe(200);

    // What each provider has.
    for (const id of [`sp-one-${RUN}`, 'sp-gata']) playback.spotifyTracks.add(id);
    for (const id of [`ap-one-${RUN}`, '1727813561', `ap-four-${RUN}`]) playback.appleSongs.add(id);
    for (const id of [`yt-one-${RUN}`, `yt-four-${RUN}`, `yt-five-${RUN}`]) playback.youtubeVideos.add(id);
    playback.audiusTracks.add(`au-two-${RUN}`);

    const one = await catalogueSong(
      dj.token,
      { trackName: `Together ${RUN}`, artistName: 'The Listeners', duration: 200, isrc: `QZTST${RUN.toUpperCase()}1`.slice(0, 12) },
      { spotify: `sp-one-${RUN}`, apple: `ap-one-${RUN}`, youtube: `yt-one-${RUN}` },
    );
    const two = await catalogueSong(
      dj.token,
      { trackName: `Elsewhere ${RUN}`, artistName: 'Open Streams', duration: 200, isrc: `QZTST${RUN.toUpperCase()}2`.slice(0, 12) },
      { audius: `au-two-${RUN}` },
    );
    // Known only on Spotify here; Apple Music has it under the same ISRC (the catalogue's Apple stand-in).
    const three = await catalogueSong(
      dj.token,
      { trackName: 'Gata Only', artistName: 'FloyyMenor & Cris Mj', duration: 222, isrc: 'QZL382406049' },
      { spotify: 'sp-gata' },
    );
    // Spotify does not have the id the song names.
    const four = await catalogueSong(
      dj.token,
      { trackName: `Fallback ${RUN}`, artistName: 'Second Choice', duration: 200, isrc: `QZTST${RUN.toUpperCase()}4`.slice(0, 12) },
      { spotify: `sp-missing-${RUN}`, apple: `ap-four-${RUN}`, youtube: `yt-four-${RUN}` },
    );
    const five = await catalogueSong(
      dj.token,
      { trackName: `Encore ${RUN}`, artistName: 'Video Only', duration: 200, isrc: `QZTST${RUN.toUpperCase()}5`.slice(0, 12) },
      { youtube: `yt-five-${RUN}` },
    );
    const queued = await call('POST', `${P}/crate/special/queue/songs`, dj.token, {
      songs: [one, two, three, four, five].map((songId) => ({ songId })),
      append: true,
    });
    expect(queued.status).toBe(201);

    const room = (await call('POST', '/api/room-service/rooms/infrastructure', owner.token, { name: `Many Players ${RUN}` })).body;
    const deejay = await FeedListener.join(platform.baseUrl, dj.token, dj.userUuid, room.uuid);
    listeners.push(deejay);
    await deejay.action('addDj');
    await deejay.until((s) => s.nowPlaying?.song?.songId === one, 'song one playing');

    // Ana and Bo signed in, a guest who browses; Bo on a phone.
    const anaPage = await open();
    const anaReported = kinesisOf(anaPage);
    await openSignedIn(anaPage, platform.baseUrl, ana, `#/room/${room.slug}`);
    const boPage = await open(390, 844);
    const boReported = kinesisOf(boPage);
    await openSignedIn(boPage, platform.baseUrl, bo, `#/room/${room.slug}`);
    const guestPage = await open();
    const guestReported = kinesisOf(guestPage);
    await guestPage.goto(platform.baseUrl);
    await guestPage.getByRole('button', { name: 'Browse as a guest' }).click();
    await guestPage.getByRole('heading', { name: 'Public rooms' }).waitFor();
    await guestPage.goto(`${platform.baseUrl}/#/room/${room.slug}`);

    await expect.poll(() => heardOn(anaPage).textContent(), { timeout: 20_000 }).toBe('Playing on Apple Music');
    await expect.poll(() => heardOn(boPage).textContent(), { timeout: 20_000 }).toBe('Playing on Spotify');
    await expect.poll(() => heardOn(guestPage).textContent(), { timeout: 20_000 }).toBe('Playing on YouTube');
    await guestPage.locator('.playback-video iframe[src^="https://www.youtube.com/embed/"]').waitFor();
    await anaPage.screenshot({ path: join(ARTIFACTS, 'playback-apple.png'), fullPage: true });
    await boPage.screenshot({ path: join(ARTIFACTS, 'playback-spotify-phone.png'), fullPage: true });
    await guestPage.screenshot({ path: join(ARTIFACTS, 'playback-youtube-guest.png'), fullPage: true });

    const device = [...playback.devices.values()].find((d) => d.playing)!;
    expect(device.uri).toBe(`spotify:track:sp-one-${RUN}`);
    const roomAt = (at: number) => {
      const np = deejay.state.nowPlaying;
      return np.song.duration - (np.endTime - at) / 1000;
    };
    const roomPosition = (): Promise<Reading> => {
      const at = Date.now();
      return Promise.resolve([roomAt(at), at]);
    };
    const reads = [
      roomPosition,
      () => inPage(anaPage, 'window.MusicKit.getInstance().currentPlaybackTime'),
      (): Promise<Reading> => Promise.resolve([playback.spotifyPosition(device.id), Date.now()]),
      () => inPage(guestPage, 'window.__youtubeStandIn[0].getCurrentTime()'),
    ];
    const inSync = async () => {
      const [room0, ...players] = await positionsNow(reads);
      const off = players.map((p) => Math.abs(p - room0!));
      expect(
        Math.max(...off),
        `apple, spotify, youtube off the room (${room0!.toFixed(2)} s) by ${off.map((o) => o.toFixed(2))}`,
      ).toBeLessThan(1);
      return true;
    };
    await inSync();

    // Bo's player drifts 8 s ahead: within a drift check (3 s) it is sought back.
    playback.drift(device.id, 8);
    expect(Math.abs(playback.spotifyPosition(device.id)! - roomAt(Date.now())) > 5).toBe(true);
    await eventually(inSync, 20_000, 250).catch(async (error: unknown) => {
      const log = await boPage.evaluate<unknown>('window.__spotifyStandIn');
      throw new Error(
        `${String(error)}; Bo's player at ${Date.now()}: ${JSON.stringify(log)}; room ends ${deejay.state.nowPlaying.endTime}`,
      );
    });

    // Song two is on Audius only: Spotify pauses, Apple stops, the video goes; all three hear Audius's stream.
    await deejay.action('skipSong');
    await deejay.until((s) => s.nowPlaying?.song?.songId === two, 'song two playing');
    await expect.poll(() => heardOn(boPage).textContent(), { timeout: 20_000 }).toBe('Playing on Audius');
    await expect.poll(() => heardOn(anaPage).textContent(), { timeout: 20_000 }).toBe('Playing on Audius');
    await expect.poll(() => heardOn(guestPage).textContent(), { timeout: 20_000 }).toBe('Playing on Audius');
    expect(playback.devices.get(device.id)!.playing).toBe(false);
    expect(await anaPage.evaluate<boolean>('window.MusicKit.getInstance().isPlaying')).toBe(false);
    await expect.poll(() => guestPage.locator('.playback-video').count()).toBe(0);
    // Play tracking: song one's play ended for each signed-in listener, reported with the provider each heard it on.
    const totalOfOne = (reported: Reported[]) => reported.find((r) => r.record.event === 'totalPlayed' && r.record.songInfo.songId === one);
    await expect.poll(() => totalOfOne(anaReported)?.status, { timeout: 10_000 }).toBe(201);
    await expect.poll(() => totalOfOne(boReported)?.status, { timeout: 10_000 }).toBe(201);
    expect(totalOfOne(anaReported)).toMatchObject({
      topic: 'play-tracking',
      record: { userUuid: ana.userUuid, djUuid: dj.userUuid, roomSlug: room.slug, userProvider: 'apple', subscriptionLevel: '' },
    });
    expect(totalOfOne(boReported)?.record).toMatchObject({ userUuid: bo.userUuid, userProvider: 'spotify', device: { platform: 'web' } });
    // A guest is no known user: nothing is tracked.
    expect(guestReported).toEqual([]);
    const audioAt = (page: Page) => inPage(page, `document.querySelector('[data-testid="room-audio"]').currentTime`);
    await eventually(
      async () => {
        const [room0, ...players] = await positionsNow([
          roomPosition,
          () => audioAt(anaPage),
          () => audioAt(boPage),
          () => audioAt(guestPage),
        ]);
        for (const p of players) expect(Math.abs(p - room0!)).toBeLessThan(1);
        return true;
      },
      20_000,
      250,
    );

    // Song three is known only on Spotify. Spotify has let Bo's token expire: the 401 gets a new one and it plays.
    // Ana has no Spotify: Apple Music's search finds the same ISRC, and the catalogue learns it for everyone.
    for (const d of playback.devices.values()) playback.expiredSpotifyTokens.add(d.token);
    await deejay.action('skipSong');
    await deejay.until((s) => s.nowPlaying?.song?.songId === three, 'song three playing');
    await expect.poll(() => heardOn(boPage).textContent(), { timeout: 20_000 }).toBe('Playing on Spotify');
    await expect.poll(() => heardOn(anaPage).textContent(), { timeout: 20_000 }).toBe('Playing on Apple Music');
    // A new player (a new device: the last one was let go when Audius took over), signed in with the refreshed token.
    expect([...playback.devices.values()].filter((d) => d.playing)).toMatchObject([{ uri: 'spotify:track:sp-gata', playing: true }]);
    const [learnt] = (await call('GET', `${P}/song-data/service?ids=${three}`, dj.token)).body.songs;
    expect(learnt.musicProviders).toMatchObject({ spotify: 'sp-gata', apple: '1727813561' });
    // The guest has neither, and the song has no preview: the panel says why.
    await guestPage.getByText('This song is on Spotify, which you have not connected here').waitFor();

    // Song four: Spotify does not have its id, and Ana's Apple Music token has expired: both hear it on YouTube.
    playback.appleUserTokens.delete(anaMusicUserToken);
    await deejay.action('skipSong');
    await deejay.until((s) => s.nowPlaying?.song?.songId === four, 'song four playing');
    await expect.poll(() => heardOn(boPage).textContent(), { timeout: 20_000 }).toBe('Playing on YouTube');
    await expect.poll(() => heardOn(anaPage).textContent(), { timeout: 20_000 }).toBe('Playing on YouTube');
    await expect.poll(() => heardOn(guestPage).textContent(), { timeout: 20_000 }).toBe('Playing on YouTube');
    await boPage.screenshot({ path: join(ARTIFACTS, 'playback-fallback-phone.png'), fullPage: true });

    // Song five would be the guest's fourth: past the free limit (3) they are asked to sign up; the others hear it.
    await deejay.action('skipSong');
    await deejay.until((s) => s.nowPlaying?.song?.songId === five, 'song five playing');
    await expect.poll(() => heardOn(anaPage).textContent(), { timeout: 20_000 }).toBe('Playing on YouTube');
    await guestPage.getByRole('button', { name: 'Sign up to keep listening' }).waitFor();
    await expect.poll(() => guestPage.locator('.playback-video').count()).toBe(0);
    await guestPage.screenshot({ path: join(ARTIFACTS, 'playback-guest-limit.png'), fullPage: true });
    expect(problems).toEqual([]);
  });
  it("links Apple Music on the settings screen through MusicKit and Apple's sign-in window, then plays a room song on it", {
    timeout: 120_000,
  }, async () => {
    const owner = await person(`Keeper ${RUN}`);
    const dj = await person(`Spinner ${RUN}`);
    const eve = await person(`Eve ${RUN}`);
    const appleId = `ap-linked-${RUN}`;
    playback.appleSongs.add(appleId);
    playback.youtubeVideos.add(`yt-linked-${RUN}`);

    const page = await open();
    // No COOP of the page may cut Apple's window off from it: MusicKit hears the token through the window's opener.
    const served = await page.goto(platform.baseUrl);
    expect(served?.headers()['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    await openSignedIn(page, platform.baseUrl, eve, '#/settings');
    const providers = page.getByRole('list', { name: 'Music providers' });
    const appleRow = providers.getByRole('listitem').filter({ hasText: 'Apple Music' });
    await appleRow.getByText('Not linked').waitFor();
    const link = page.getByRole('button', { name: 'Link Apple Music', exact: true });

    // The first time Eve closes Apple's window without allowing: nothing is linked, and the screen says so.
    const declined = page.waitForEvent('popup');
    await link.click();
    const first = await declined;
    await first.getByRole('heading', { name: 'Allow Spinroom to access Apple Music?' }).waitFor();
    await first.getByRole('button', { name: "Don't Allow" }).click();
    await page.getByRole('alert').filter({ hasText: 'Apple Music was not linked: the sign-in with Apple did not finish.' }).waitFor();
    expect(playback.appleAuthorizations).toHaveLength(0);
    expect((await call('GET', `${U}/users/music-providers`, eve.token)).body.links).toEqual([]);

    // Then she allows: MusicKit answers the Music User Token Apple issued, and the user service keeps it.
    const allowed = page.waitForEvent('popup');
    await link.click();
    const second = await allowed;
    await second.getByRole('button', { name: 'Allow', exact: true }).click();
    await page.getByRole('button', { name: 'Unlink Apple Music' }).waitFor();
    await appleRow.getByText('Linked', { exact: true }).waitFor();
    expect(playback.appleAuthorizations).toHaveLength(1);
    const stored = await call('GET', `${U}/apple/user-token/${eve.userUuid}`, eve.token);
    expect(stored.status).toBe(200);
    expect(stored.body.userToken).toBe(playback.appleAuthorizations[0]);
    expect((await call('GET', `${U}/users/music-providers`, eve.token)).body.links).toMatchObject([{ provider: 'apple', client: 'web' }]);
    await page.screenshot({ path: join(ARTIFACTS, 'settings-apple-linked.png'), fullPage: true });

    // A room song on Apple Music and YouTube: Eve hears it on Apple Music (spec 002: apple first), at the room's position.
    const songId = await catalogueSong(
      dj.token,
      { trackName: `Linked Here ${RUN}`, artistName: 'Settings Screen', duration: 200, isrc: `QZTSA${RUN.toUpperCase()}1`.slice(0, 12) },
      { apple: appleId, youtube: `yt-linked-${RUN}` },
    );
    expect((await call('POST', `${P}/crate/special/queue/songs`, dj.token, { songs: [{ songId }], append: true })).status).toBe(201);
    const room = (await call('POST', '/api/room-service/rooms/infrastructure', owner.token, { name: `Linked Apple ${RUN}` })).body;
    const deejay = await FeedListener.join(platform.baseUrl, dj.token, dj.userUuid, room.uuid);
    listeners.push(deejay);
    await deejay.action('addDj');
    await deejay.until((st) => st.nowPlaying?.song?.songId === songId, 'the Apple Music song playing');
    await page.goto(`${platform.baseUrl}/#/room/${room.slug}`);
    await expect.poll(() => heardOn(page).textContent(), { timeout: 20_000 }).toBe('Playing on Apple Music');
    expect(await page.evaluate<string>('window.MusicKit.getInstance().nowPlayingItem.id')).toBe(appleId);
    await eventually(
      async () => {
        const at = Date.now();
        const np = deejay.state.nowPlaying;
        const [room0, heard] = await positionsNow([
          () => Promise.resolve<Reading>([np.song.duration - (np.endTime - at) / 1000, at]),
          () => inPage(page, 'window.MusicKit.getInstance().currentPlaybackTime'),
        ]);
        expect(Math.abs(heard! - room0!)).toBeLessThan(1);
        return true;
      },
      20_000,
      250,
    );
    await page.screenshot({ path: join(ARTIFACTS, 'playback-apple-linked.png'), fullPage: true });

    // Unlinked in settings: the token is gone from the user service and from this browser's MusicKit.
    await page.goto(`${platform.baseUrl}/#/settings`);
    await page.getByRole('button', { name: 'Unlink Apple Music' }).click();
    await page.getByRole('button', { name: 'Link Apple Music', exact: true }).waitFor();
    await appleRow.getByText('Not linked').waitFor();
    expect((await call('GET', `${U}/apple/user-token/${eve.userUuid}`, eve.token)).status).toBe(404);
    expect(await page.evaluate<number>('Object.keys(localStorage).filter((k) => k.endsWith(".media-user-token")).length')).toBe(0);
    expect(problems).toEqual([]);
  });
  it('plays a SoundCloud song over its HLS after one 403 and a 7digital song from its signed stream, in sync', {
    timeout: 120_000,
  }, async () => {
    const owner = await person(`Host ${RUN}`);
    const dj = await person(`Selector ${RUN}`);
    const cleo = await person(`Cleo ${RUN}`);
    const dan = await person(`Dan ${RUN}`);

    // Cleo links SoundCloud with a refresh token its web SDK obtained (the settings screen's form does the same).
    const linked = await call('POST', `${U}/soundcloud/refresh-token`, cleo.token, {
      refreshToken: providers.oauth.issueRefreshToken('soundcloud'),
    });
    expect(linked.status).toBe(200);
    const cleoSoundCloudToken = linked.body.accessToken as string;

    // Numeric ids, as SoundCloud's and 7digital's are (7digital's links are signed only for those).
    const soundCloudId = `${Date.now()}1`;
    const sevenDigitalId = `${Date.now()}7`;
    playback.soundCloudTracks.add(soundCloudId);
    playback.sevenDigitalTracks.add(sevenDigitalId);
    const onSoundCloud = await catalogueSong(
      dj.token,
      { trackName: `Cloud Walk ${RUN}`, artistName: 'The Uploaders', duration: 200, isrc: `QZTSC${RUN.toUpperCase()}1`.slice(0, 12) },
      { soundCloudPublic: soundCloudId },
    );
    const onSevenDigital = await catalogueSong(
      dj.token,
      { trackName: `Seventh ${RUN}`, artistName: 'Signed Links', duration: 200, isrc: `QZTSD${RUN.toUpperCase()}2`.slice(0, 12) },
      { sevenDigital: sevenDigitalId },
    );
    const queued = await call('POST', `${P}/crate/special/queue/songs`, dj.token, {
      songs: [onSoundCloud, onSevenDigital].map((songId) => ({ songId })),
      append: true,
    });
    expect(queued.status).toBe(201);

    const room = (await call('POST', '/api/room-service/rooms/infrastructure', owner.token, { name: `Open Streams ${RUN}` })).body;
    const deejay = await FeedListener.join(platform.baseUrl, dj.token, dj.userUuid, room.uuid);
    listeners.push(deejay);
    await deejay.action('addDj');
    await deejay.until((s) => s.nowPlaying?.song?.songId === onSoundCloud, 'the SoundCloud song playing');
    const roomPosition = (): Promise<Reading> => {
      const at = Date.now();
      const np = deejay.state.nowPlaying;
      return Promise.resolve([np.song.duration - (np.endTime - at) / 1000, at]);
    };
    const audioAt = (page: Page) => inPage(page, `document.querySelector('[data-testid="room-audio"]').currentTime`);
    const inSync = (pages: Page[]) =>
      eventually(
        async () => {
          const [room0, ...players] = await positionsNow([roomPosition, ...pages.map((page) => () => audioAt(page))]);
          const off = players.map((p) => Math.abs(p - room0!));
          expect(Math.max(...off), `off the room (${room0!.toFixed(2)} s) by ${off.map((o) => o.toFixed(2))}`).toBeLessThan(1);
          return true;
        },
        20_000,
        250,
      );

    // SoundCloud refuses the first streams request (403): Cleo's client asks for her token again, once, and plays.
    playback.soundCloudRefusals = 1;
    const asked = playback.soundCloudTokens.length;
    const cleoPage = await open();
    const cleoTokenRequests: string[] = [];
    cleoPage.on('request', (r) => r.url().includes(`${U}/soundcloud/`) && cleoTokenRequests.push(new URL(r.url()).pathname));
    await openSignedIn(cleoPage, platform.baseUrl, cleo, `#/room/${room.slug}`);
    await expect.poll(() => heardOn(cleoPage).textContent(), { timeout: 20_000 }).toBe('Playing on SoundCloud');
    expect(playback.soundCloudRefusals).toBe(0);
    // Two asks, the first with her link's token; the 403 made the client refresh her link once (SoundCloud's
    // refresh through the user service), and the second ask, with the new token, got the streams.
    const cleoAsks = playback.soundCloudTokens.slice(asked);
    expect(cleoAsks).toHaveLength(2);
    expect(cleoAsks[0]).toBe(cleoSoundCloudToken);
    expect(cleoAsks[1]).not.toBe(cleoSoundCloudToken);
    expect(cleoTokenRequests).toEqual([`${U}/soundcloud/access-token/${cleo.userUuid}`, `${U}/soundcloud/access-token/refresh`]);
    // Heard over the AAC HLS (playlist, init segment, media segments), not a progressive file.
    const hlsAsked = () =>
      playback.requests.filter((r) => r.startsWith(`GET playback.media-streaming.soundcloud.cloud/${soundCloudId}/aac_160k/`));
    await expect.poll(() => hlsAsked().some((r) => r.endsWith('.m4s')), { timeout: 10_000 }).toBe(true);
    expect(hlsAsked().map((r) => r.split('/').pop())).toEqual(expect.arrayContaining(['playlist.m3u8', 'init.mp4']));
    expect(playback.requests.some((r) => r.startsWith('GET cf-media.sndcdn.com/'))).toBe(false);
    await inSync([cleoPage]);
    await cleoPage.screenshot({ path: join(ARTIFACTS, 'playback-soundcloud.png'), fullPage: true });

    // Dan linked nothing: he hears the same song through the app's public SoundCloud token.
    const danPage = await open(390, 844);
    const danTokenRequests: string[] = [];
    danPage.on('request', (r) => r.url().includes(`${U}/soundcloud/`) && danTokenRequests.push(new URL(r.url()).pathname));
    await openSignedIn(danPage, platform.baseUrl, dan, `#/room/${room.slug}`);
    await expect.poll(() => heardOn(danPage).textContent(), { timeout: 20_000 }).toBe('Playing on SoundCloud');
    expect(danTokenRequests).toEqual([`${U}/soundcloud/access-token/${dan.userUuid}`, `${U}/soundcloud/public-token`]);
    expect(playback.soundCloudTokens.at(-1)).not.toBe(cleoSoundCloudToken);
    await inSync([cleoPage, danPage]);

    // The next song is on 7digital only: both hear the stream link the catalogue signed, in step.
    const sevenDigitalAsked = () => playback.requests.filter((r) => r.startsWith('GET stream.svc.7digital.net/stream/catalogue'));
    await deejay.action('skipSong');
    await deejay.until((s) => s.nowPlaying?.song?.songId === onSevenDigital, 'the 7digital song playing');
    await expect.poll(() => heardOn(cleoPage).textContent(), { timeout: 20_000 }).toBe('Playing on 7digital');
    await expect.poll(() => heardOn(danPage).textContent(), { timeout: 20_000 }).toBe('Playing on 7digital');
    expect(sevenDigitalAsked().length).toBeGreaterThanOrEqual(2);
    await inSync([cleoPage, danPage]);
    await danPage.screenshot({ path: join(ARTIFACTS, 'playback-7digital-phone.png'), fullPage: true });
    expect(problems).toEqual([]);
  });
});
