import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MusicCatalogueProvider } from '../../src/providers/index.js';
import { SOUNDCLOUD_CLIENT, startSoundCloudStandIn } from '../stand-ins/soundcloud.js';
import { expectAppError, testProviders } from './helpers.js';

describe('SoundCloud provider against its stand-in', () => {
  let standIn: Awaited<ReturnType<typeof startSoundCloudStandIn>>;
  const env = () => ({
    SOUNDCLOUD_API_URL: standIn.url,
    SOUNDCLOUD_AUTH_URL: standIn.url,
    SOUNDCLOUD_CLIENT_ID: SOUNDCLOUD_CLIENT.id,
    SOUNDCLOUD_CLIENT_SECRET: SOUNDCLOUD_CLIENT.secret,
  });
  const soundcloud = () => testProviders(env()).providers.soundCloudPublic;

  beforeAll(async () => {
    standIn = await startSoundCloudStandIn();
  });
  afterAll(() => standIn.close());
  beforeEach(() => {
    standIn.server.requests.length = 0;
    standIn.state.grants.length = 0;
    standIn.state.refusalStatus = 401;
    standIn.tokens.refuseAll = false;
  });

  it('maps search results to provider tracks', async () => {
    const tracks = await soundcloud().search('kavinsky');
    expect(tracks).toEqual([
      {
        provider: 'soundCloudPublic',
        providerSongId: '1234',
        trackName: 'Night Drive',
        artistName: 'Kavinsky',
        duration: 244,
        isrc: 'USRC17607839',
        genre: 'Electronic',
        releaseYear: 2019,
        thumbnails: { soundCloudPublic: 'https://i1.sndcdn.com/artworks-000123456789-abcdef-t300x300.jpg' },
        links: { soundCloudPublic: 'https://soundcloud.com/kavinsky-official/night-drive' },
      },
    ]);
    const [search] = standIn.server.calls('/tracks');
    expect(Object.fromEntries(search!.query)).toEqual({
      q: 'kavinsky',
      access: 'playable',
      limit: '20',
      offset: '0',
      linked_partitioning: 'true',
    });
    expect(search!.headers.authorization).toMatch(/^OAuth soundcloud-/);
  });

  it("carries a private track's secret token and falls back to the uploader's avatar", async () => {
    const [, demo] = await soundcloud().search('night drive', { limit: 5 });
    expect(demo).toEqual({
      provider: 'soundCloudPublic',
      providerSongId: '5678',
      trackName: 'Night Drive (demo)',
      artistName: 'bedroom dj',
      duration: 185,
      thumbnails: { soundCloudPublic: 'https://i1.sndcdn.com/avatars-000999-bbbbbb-t300x300.jpg' },
      links: { soundCloudPublic: 'https://soundcloud.com/bedroom-dj/demo-night-drive/s-AbCdEf' },
      playbackToken: 's-AbCdEf',
    });
  });

  it('gets a track by id or URN, and null for one SoundCloud does not know', async () => {
    const provider = soundcloud();
    expect(await provider.track('1234')).toMatchObject({ trackName: 'Night Drive' });
    expect(await provider.track('soundcloud:tracks:5678')).toMatchObject({ trackName: 'Night Drive (demo)' });
    expect(await provider.track('999999')).toBeNull();
    expect(await provider.track('kavinsky/night-drive')).toBeNull();
    expect(standIn.server.calls('/tracks/')).toHaveLength(3);
    expect((provider as MusicCatalogueProvider).trackByIsrc).toBeUndefined();
  });

  it('asks for one client-credentials token for many calls, then renews it with the refresh token', async () => {
    const { providers, clock } = testProviders(env());
    await providers.soundCloudPublic.search('kavinsky');
    await providers.soundCloudPublic.track('1234');
    await providers.soundCloudPublic.track('5678');
    expect(standIn.state.grants).toEqual(['client_credentials']);
    clock.advance(3600);
    await providers.soundCloudPublic.track('1234');
    expect(standIn.state.grants).toEqual(['client_credentials', 'refresh_token']);
    const [first, second] = standIn.server.calls('/oauth/token');
    expect(first!.headers.authorization).toMatch(/^Basic /);
    expect(new URLSearchParams(second!.body).get('client_id')).toBe(SOUNDCLOUD_CLIENT.id);
  });

  it.each([401, 403] as const)('renews a token refused with %i and tries once more', async (status) => {
    const provider = soundcloud();
    await provider.search('kavinsky');
    standIn.state.refusalStatus = status;
    standIn.tokens.expireAll();
    expect(await provider.track('1234')).toMatchObject({ trackName: 'Night Drive' });
    expect(standIn.server.calls('/tracks/1234')).toHaveLength(2);
    expect(standIn.tokenRequests()).toBe(2);
  });

  it('starts again with client credentials when the refresh token is refused', async () => {
    const provider = soundcloud();
    await provider.search('kavinsky');
    standIn.tokens.expireAll();
    standIn.forgetRefreshTokens();
    expect(await provider.track('1234')).toMatchObject({ trackName: 'Night Drive' });
    expect(standIn.state.grants).toEqual(['client_credentials', 'refresh_token', 'client_credentials']);
  });

  it('retries only once: a second 403 is a 502', async () => {
    standIn.state.refusalStatus = 403;
    standIn.tokens.refuseAll = true;
    await expectAppError(soundcloud().search('kavinsky'), 502, /^SoundCloud did not answer as expected/);
    expect(standIn.server.calls('/tracks')).toHaveLength(2);
  });

  it('turns a 5xx into a 502 naming SoundCloud, without its error text', async () => {
    standIn.server.failNext(502);
    await expectAppError(soundcloud().track('1234'), 502, 'SoundCloud did not answer as expected, please try again');
  });

  it('gives up on a provider that does not answer in time (502)', async () => {
    standIn.server.stallNext(1500);
    await expectAppError(soundcloud().search('kavinsky'), 502, /^SoundCloud/);
  });

  it('fails with 502 when the token service refuses the client', async () => {
    const provider = testProviders({ ...env(), SOUNDCLOUD_CLIENT_SECRET: 'wrong' }).providers.soundCloudPublic;
    await expectAppError(provider.search('kavinsky'), 502, /^SoundCloud/);
    expect(standIn.server.calls('/tracks')).toHaveLength(0);
  });

  it('is off without credentials: 503 saying so', async () => {
    const provider = testProviders({ SOUNDCLOUD_API_URL: standIn.url }).providers.soundCloudPublic;
    expect(provider.enabled).toBe(false);
    await expectAppError(provider.search('kavinsky'), 503, 'SoundCloud is not configured on this server');
    await expectAppError(provider.track('1234'), 503, 'SoundCloud is not configured on this server');
    expect(standIn.server.requests).toHaveLength(0);
  });
});
