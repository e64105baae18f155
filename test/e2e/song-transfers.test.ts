import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@spinroom/platform/testing';
import { APPLE_MUSIC_USER_TOKEN } from '../../services/playlist/test/stand-ins/apple-music.js';
import { CYANITE, cyaniteWebhook } from '../../services/playlist/test/stand-ins/cyanite.js';
import { SEVEN_DIGITAL_CONSUMER } from '../../services/playlist/test/stand-ins/seven-digital.js';
import { SPOTIFY_USER } from '../../services/playlist/test/stand-ins/spotify.js';
import { startProviderStandIns } from '../support/provider-stand-ins.js';
import { api, freshEmail, signedToken, startPlatform, type TestPlatform } from '../support/platform.js';

const P = '/api/playlist-service';

describe('streams, imports, exports, the links job and the analysis webhook through the BFF (provider stand-ins)', () => {
  let standIns: Awaited<ReturnType<typeof startProviderStandIns>>;
  let spotify: typeof standIns.spotify;
  let apple: typeof standIns.apple;
  let cyanite: typeof standIns.cyanite;
  let platform: TestPlatform;
  let token: string;
  const call = (method: string, path: string, options: Parameters<typeof api>[3] = {}) =>
    api(platform.baseUrl, method, path, { token, ...options });

  beforeAll(async () => {
    standIns = await startProviderStandIns();
    ({ spotify, apple, cyanite } = standIns);
    platform = await startPlatform({ providerEnv: standIns.env });
    token = (
      await api(platform.baseUrl, 'POST', '/api/user-service/users/sign-up', {
        body: { email: freshEmail(), password: 'correct horse battery' },
      })
    ).body.accessToken;
  });
  afterAll(async () => {
    await platform.stop();
    await standIns.close();
  });

  it('answers a signed 7digital stream (quality, country), a stored preview, and 404 without either', async () => {
    const digital = (await call('GET', `${P}/song-data/11471325/sevenDigital`)).body;
    const stream = await call('GET', `${P}/song-data/stream/gb/${digital.id}?quality=high`);
    expect(stream).toMatchObject({
      status: 200,
      body: { songId: digital.songId, musicProvider: 'sevenDigital', kind: 'stream', quality: 'high', country: 'GB' },
    });
    const url = new URL(stream.body.url);
    expect(url.pathname).toBe('/stream/catalogue');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      trackId: '11471325',
      country: 'GB',
      formatId: '17',
      oauth_consumer_key: SEVEN_DIGITAL_CONSUMER.key,
      oauth_signature: expect.any(String),
    });
    expect(stream.body.expiresAt).toEqual(expect.any(String));
    expect((await call('GET', `${P}/song-data/stream/us/${digital.songId}`)).body).toMatchObject({ quality: 'medium', country: 'US' });
    const clip = await call('GET', `${P}/song-data/preview/us/${digital.songId}`);
    expect(clip.body).toMatchObject({ musicProvider: 'sevenDigital', kind: 'preview' });
    expect(new URL(clip.body.url).pathname).toBe('/clip/11471325');

    const withPreview = (await call('GET', `${P}/song-data/0DiWol3AO6WpXZgp0goxAV/spotify`)).body;
    expect((await call('GET', `${P}/song-data/stream/us/${withPreview.id}`)).body).toMatchObject({
      musicProvider: 'spotify',
      kind: 'preview',
      url: 'https://p.scdn.co/mp3-preview/c27897e8eb4c0910e052c9beb6711432f3630879',
      expiresAt: null,
    });
    const silent = (await call('GET', `${P}/song-data/2xLMifQCjDGFmkHkpNLD9h/spotify`)).body;
    expect(await call('GET', `${P}/song-data/stream/us/${silent.id}`)).toMatchObject({
      status: 404,
      body: { message: 'No stream for this song' },
    });
    expect(await call('GET', `${P}/song-data/preview/us/${silent.songId}`)).toMatchObject({
      status: 404,
      body: { message: 'No preview for this song' },
    });
    expect((await call('GET', `${P}/song-data/stream/us/${silent.id}?quality=ultra`)).status).toBe(400);
    expect(await call('GET', `${P}/song-data/stream/us/999999`)).toMatchObject({ status: 404, body: { message: 'Song not found' } });

    const batch = await call('GET', `${P}/song-data/service?ids=${digital.id},${silent.songId},424242`);
    expect(batch.body.songs.map((s: { id: number }) => s.id)).toEqual([digital.id, silent.id]);
    expect(batch.body.songs[0]).toMatchObject({ musicProvidersIds: { sevenDigital: '11471325' } });
  });

  it('imports a Spotify and an Apple Music playlist in the background: IN_PROGRESS, then COMPLETE with the songs catalogued once', async () => {
    const started = await call('POST', `${P}/crate/import`, { body: { musicProvider: 'spotify', playlistId: '37i9dQZF1DXcBWIGoYBM5M' } });
    expect(started).toMatchObject({
      status: 201,
      body: { importStatus: 'IN_PROGRESS', crateName: expect.stringMatching(/^New Playlist #\d+$/) },
    });
    const done = await eventually(async () => {
      const crate = (await call('GET', `${P}/crate/${started.body.crateUuid}`)).body;
      expect(crate.importStatus).toBe('COMPLETE');
      return crate;
    });
    expect(done.songs.map((s: { trackName: string }) => s.trackName)).toEqual(['One More Time', 'SICKO MODE', 'One More Time']);
    expect(done.songs[0].id).toBe(done.songs[2].id);

    const fromApple = await call('POST', `${P}/crate/import`, {
      body: { musicProvider: 'apple', playlistId: 'pl.f4d106fed2bd41149aaacabb233eb5eb', crateName: 'Jazz and more' },
    });
    expect(fromApple.body).toMatchObject({ crateName: 'Jazz and more', importStatus: 'IN_PROGRESS' });
    const appleCrate = await eventually(async () => {
      const crate = (await call('GET', `${P}/crate/${fromApple.body.crateUuid}`)).body;
      expect(crate.importStatus).toBe('COMPLETE');
      return crate;
    });
    expect(appleCrate.songs.map((s: { musicProviders: Record<string, string> }) => s.musicProviders.apple)).toEqual([
      '897072750',
      '1727813561',
      '897072750',
    ]);

    const unknown = await call('POST', `${P}/crate/import`, { body: { musicProvider: 'spotify', playlistId: '0000000000000000000000' } });
    await eventually(async () =>
      (await call('GET', `${P}/crate/${unknown.body.crateUuid}`)).body.importStatus === 'FAILED' ? true : undefined,
    );
    expect((await call('POST', `${P}/crate/import`, { body: { musicProvider: 'youtube', playlistId: 'x' } })).status).toBe(400);
  });

  it('a crate import left by a worker that died is taken again after its lease, and one the provider keeps failing ends FAILED', async () => {
    const db = new pg.Client({ connectionString: platform.playlist.databaseUrl });
    await db.connect();
    try {
      spotify.server.failNext(503, 3);
      const flaky = await call('POST', `${P}/crate/import`, { body: { musicProvider: 'spotify', playlistId: '37i9dQZF1DXcBWIGoYBM5M' } });
      await eventually(
        async () => ((await call('GET', `${P}/crate/${flaky.body.crateUuid}`)).body.importStatus === 'FAILED' ? true : undefined),
        10_000,
      );

      // A job as a crashed worker leaves it: claimed, lease run out.
      const crate = (await call('POST', `${P}/crate`, { body: { crateName: 'Orphaned import' } })).body;
      const { rows } = await db.query(`update "crate" set "import_status" = 'IN_PROGRESS' where "crate_uuid" = $1 returning "id"`, [
        crate.crateUuid,
      ]);
      await db.query(
        `insert into "crate_import" ("crate_id", "music_provider", "playlist_id", "country", "attempts", "lease_until") values ($1, 'apple', 'pl.f4d106fed2bd41149aaacabb233eb5eb', 'US', 1, now() - interval '1 second')`,
        [rows[0].id],
      );
      const resumed = await eventually(async () => {
        const c = (await call('GET', `${P}/crate/${crate.crateUuid}`)).body;
        expect(c.importStatus).toBe('COMPLETE');
        return c;
      });
      expect(resumed.crateSongsNumber).toBe(3);
      expect((await db.query(`select count(*)::int as n from "crate_import"`)).rows[0].n).toBe(0);
    } finally {
      await db.end();
    }
  });

  it("exports a crate to the user's Spotify and Apple Music accounts by provider id or ISRC, naming what is missing", async () => {
    const crate = (await call('POST', `${P}/crate`, { body: { crateName: 'Road trip' } })).body;
    await call('POST', `${P}/crate/${crate.crateUuid}/songs`, {
      body: {
        songs: [
          {
            musicProvider: 'spotify',
            songId: '0DiWol3AO6WpXZgp0goxAV',
            trackName: 'One More Time',
            artistName: 'Daft Punk',
            duration: 320,
            isrc: 'GBDUW0000053',
          },
          {
            musicProvider: 'youtube',
            songId: 'dQw4w9WgXcQ',
            trackName: 'SICKO MODE',
            artistName: 'Travis Scott, Drake',
            duration: 313,
            isrc: 'USSM11808176',
          },
          { musicProvider: 'apple', songId: '897072750', trackName: 'Invitation (Live)', artistName: 'Ahmad Jamal', duration: 672 },
          { musicProvider: 'youtube', songId: 'aaaaaaaaaaa', trackName: 'Home video', artistName: 'Nobody', duration: 60 },
        ],
      },
    });
    const toSpotify = await call('POST', `${P}/exports/spotify`, { body: { crateUuid: crate.crateUuid, accessToken: SPOTIFY_USER.token } });
    expect(toSpotify).toMatchObject({
      status: 201,
      body: { added: 2, url: expect.stringMatching(/^https:\/\/open\.spotify\.com\/playlist\//) },
    });
    expect(toSpotify.body.missing.map((s: { trackName: string }) => s.trackName)).toEqual(['Invitation (Live)', 'Home video']);
    const made = spotify.created.find((p) => p.id === toSpotify.body.playlistId)!;
    expect(made).toMatchObject({
      name: 'Road trip',
      public: false,
      uris: ['spotify:track:0DiWol3AO6WpXZgp0goxAV', 'spotify:track:2xLMifQCjDGFmkHkpNLD9h'],
    });
    expect(await call('POST', `${P}/exports/spotify`, { body: { crateUuid: crate.crateUuid, accessToken: 'stolen' } })).toMatchObject({
      status: 401,
      body: { message: 'Spotify refused the access token' },
    });

    const toApple = await call('POST', `${P}/exports/apple`, {
      body: { crateUuid: crate.crateUuid, musicUserToken: APPLE_MUSIC_USER_TOKEN, playlistName: 'Road trip (Apple)' },
    });
    expect(toApple).toMatchObject({ status: 201, body: { added: 1, playlistId: expect.stringMatching(/^p\./) } });
    expect(apple.created.find((p) => p.id === toApple.body.playlistId)).toMatchObject({
      name: 'Road trip (Apple)',
      trackIds: ['897072750'],
    });
    expect((await call('POST', `${P}/exports/apple`, { body: { crateUuid: crate.crateUuid, musicUserToken: 'nope' } })).status).toBe(401);

    const other = (
      await api(platform.baseUrl, 'POST', '/api/user-service/users/sign-up', {
        body: { email: freshEmail(), password: 'correct horse battery' },
      })
    ).body.accessToken;
    expect(
      (
        await api(platform.baseUrl, 'POST', `${P}/exports/spotify`, {
          token: other,
          body: { crateUuid: crate.crateUuid, accessToken: SPOTIFY_USER.token },
        })
      ).status,
    ).toBe(404);
  });

  it('fills missing links from provider ids for admins only, and a second run changes nothing', async () => {
    const song = (
      await call('POST', `${P}/crate/special/likes/songs`, {
        body: {
          songs: [{ musicProvider: 'youtube', songId: 'kJQP7kiw5Fk', trackName: 'Despacito', artistName: 'Luis Fonsi', duration: 282 }],
        },
      })
    ).body.songs[0];
    expect(song.links).toEqual({});
    expect(await call('POST', `${P}/song-data/migrate-links`)).toMatchObject({
      status: 403,
      body: { message: 'Only admins may run this job' },
    });
    const admin = await signedToken('admin');
    const first = await api(platform.baseUrl, 'POST', `${P}/song-data/migrate-links`, { token: admin });
    expect(first.status).toBe(200);
    expect(first.body.changed).toBeGreaterThanOrEqual(1);
    const [after] = (await call('GET', `${P}/song-data/service?ids=${song.songId}`)).body.songs;
    expect(after.links).toEqual({ youtube: 'https://www.youtube.com/watch?v=kJQP7kiw5Fk' });
    expect((await api(platform.baseUrl, 'POST', `${P}/song-data/migrate-links`, { token: admin })).body.changed).toBe(0);
  });

  it('takes the analysis webhook only with a valid signature, keeps the tags once, and answers 200 to what it ignores', async () => {
    const song = (await call('GET', `${P}/song-data/897072750/apple`)).body;
    cyanite.tracks.set('lt-1', {
      id: 'lt-1',
      externalId: song.songId,
      analysis: 'finished',
      genreTags: ['jazz', 'ambient'],
      moodTags: ['calm'],
      bpm: 96,
    });
    const { body, signature } = cyaniteWebhook('lt-1', 'finished');
    const hook = (raw: string, sig?: string) =>
      api(platform.baseUrl, 'POST', `${P}/cyanite/webhook`, { rawBody: raw, headers: sig ? { signature: sig } : {} });
    expect(await hook(body)).toMatchObject({ status: 401, body: { message: 'The webhook signature is invalid' } });
    expect((await hook(body, cyaniteWebhook('lt-1', 'finished', 'wrong-secret').signature)).status).toBe(401);
    expect(await hook(body, signature)).toMatchObject({ status: 200, body: { received: true, changed: true } });
    expect(await hook(body, signature)).toMatchObject({ status: 200, body: { changed: false } });
    const db = new pg.Client({ connectionString: platform.playlist.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query(`select a.* from "song_analysis" a join "song" s on s."id" = a."song_id" where s."song_id" = $1`, [
        song.songId,
      ]);
      expect(rows).toEqual([
        expect.objectContaining({
          library_track_id: 'lt-1',
          status: 'FINISHED',
          genre_tags: ['jazz', 'ambient'],
          mood_tags: ['calm'],
          bpm: 96,
        }),
      ]);
    } finally {
      await db.end();
    }
    const test = JSON.stringify({ type: 'TEST', data: null });
    const testSig = (await import('node:crypto')).createHmac('sha512', CYANITE.webhookSecret).update(test).digest('hex');
    expect(await hook(test, testSig)).toMatchObject({ status: 200, body: { changed: false } });
    const stranger = cyaniteWebhook('lt-unknown', 'finished');
    expect(await hook(stranger.body, stranger.signature)).toMatchObject({ status: 200, body: { changed: false } });
  });
});
