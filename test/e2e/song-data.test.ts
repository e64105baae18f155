import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPOTIFY_CLIENT, startSpotifyStandIn } from '../../services/playlist/test/stand-ins/spotify.js';
import { freshEmail, startPlatform, api, type TestPlatform } from '../support/platform.js';

describe('song data from outside catalogues through the BFF (Spotify stand-in)', () => {
  let standIn: Awaited<ReturnType<typeof startSpotifyStandIn>>;
  let platform: TestPlatform;
  let token: string;
  const P = '/api/playlist-service';
  const call = (method: string, path: string, options: Parameters<typeof api>[3] = {}) =>
    api(platform.baseUrl, method, path, { token, ...options });

  beforeAll(async () => {
    standIn = await startSpotifyStandIn();
    platform = await startPlatform({
      providerEnv: {
        SPOTIFY_API_URL: standIn.url,
        SPOTIFY_ACCOUNTS_URL: standIn.url,
        SPOTIFY_CLIENT_ID: SPOTIFY_CLIENT.id,
        SPOTIFY_CLIENT_SECRET: SPOTIFY_CLIENT.secret,
      },
    });
    token = (
      await api(platform.baseUrl, 'POST', '/api/user-service/users/sign-up', {
        body: { email: freshEmail(), password: 'correct horse battery' },
      })
    ).body.accessToken;
  });
  afterAll(async () => {
    await platform.stop();
    await standIn.close();
  });

  it('says which providers are on', async () => {
    const { body } = await call('GET', `${P}/song-data/providers`);
    expect(body.providers).toContainEqual({ name: 'spotify', label: 'Spotify', enabled: true });
    expect(body.providers).toContainEqual(expect.objectContaining({ name: 'apple', enabled: false }));
  });

  it("searches a provider's tab without cataloguing, and refuses a provider that is off", async () => {
    const tab = await call('GET', `${P}/search?q=one%20more%20time&provider=spotify`);
    expect(tab.status).toBe(200);
    expect(tab.body.songs[0]).toMatchObject({
      id: 0,
      songId: '',
      trackName: 'One More Time',
      artistName: 'Daft Punk',
      musicProviders: { spotify: '0DiWol3AO6WpXZgp0goxAV' },
    });
    const off = await call('GET', `${P}/search?q=anything&provider=apple`);
    expect(off).toMatchObject({ status: 503, body: { message: expect.stringMatching(/is not configured on this server$/) } });
    expect((await call('GET', `${P}/search?q=x&provider=winamp`)).body.message).toBe('Unknown music provider: winamp');
  });

  it('looks a song up at the provider, catalogues it once, and imports by the spec order', async () => {
    const data = await call('GET', `${P}/song-data/0DiWol3AO6WpXZgp0goxAV/spotify`);
    expect(data.status).toBe(200);
    expect(data.body).toMatchObject({
      trackName: 'One More Time',
      artistName: 'Daft Punk',
      duration: 320,
      isrc: 'GBDUW0000053',
      albumName: 'Discovery',
      musicProviders: { spotify: '0DiWol3AO6WpXZgp0goxAV' },
      musicProvidersIds: { spotify: '0DiWol3AO6WpXZgp0goxAV' },
      album: { name: 'Discovery' },
      artist: { name: 'Daft Punk' },
      id: expect.any(Number),
    });
    const again = await call('GET', `${P}/song-data/0DiWol3AO6WpXZgp0goxAV/spotify`);
    expect(again.body.id).toBe(data.body.id);
    expect((await call('GET', `${P}/song-data/0000000000000000000000/spotify`)).status).toBe(404);

    const imported = await call('POST', `${P}/api/v1/track-import`, {
      body: { musicProviders: { youtube: 'dQw4w9WgXcQ', spotify: '0DiWol3AO6WpXZgp0goxAV' } },
    });
    expect(imported).toMatchObject({ status: 201, body: { id: data.body.id } });
    const unsupported = await call('POST', `${P}/api/v1/track-import`, { body: { musicProvider: 'youtube', providerId: 'dQw4w9WgXcQ' } });
    expect(unsupported).toMatchObject({
      status: 400,
      body: { message: 'Sorry, this song does not have any supported music providers to import from' },
    });
    const unknown = await call('POST', `${P}/api/v1/track-import`, {
      body: { musicProvider: 'spotify', providerId: '0000000000000000000000' },
    });
    expect(unknown).toMatchObject({ status: 404, body: { message: "Sorry, this song is not in our catalog and can't be imported" } });

    const byLink = await call('GET', `${P}/song-data/${encodeURIComponent('https://open.spotify.com/track/0DiWol3AO6WpXZgp0goxAV?si=x')}`);
    expect(byLink).toMatchObject({ status: 200, body: { id: data.body.id, isrc: 'GBDUW0000053' } });
    expect((await call('GET', `${P}/song-data/${encodeURIComponent('https://example.com/x')}`)).body.message).toBe(
      'This link does not point at a music service',
    );
    expect((await call('GET', `${P}/song-data/${encodeURIComponent('https://www.deezer.com/track/1')}`)).body.message).toBe(
      'Songs cannot be looked up from this kind of link yet',
    );

    const albums = await call('GET', `${P}/albums/service/all-albums?take=100`);
    expect(albums.body.albums).toContainEqual(expect.objectContaining({ name: 'Discovery', artistName: 'Daft Punk', songCount: 1 }));
  });
});
