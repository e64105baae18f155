import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAudiusStandIn } from '../stand-ins/audius.js';
import { expectAppError, testProviders } from './helpers.js';

describe('Audius provider against its stand-in', () => {
  let standIn: Awaited<ReturnType<typeof startAudiusStandIn>>;
  const audius = () => testProviders({ AUDIUS_API_URL: standIn.url, AUDIUS_APP_NAME: 'spinroom-test' }).providers.audius;

  beforeAll(async () => {
    standIn = await startAudiusStandIn();
  });
  afterAll(() => standIn.close());
  beforeEach(() => {
    standIn.server.requests.length = 0;
  });

  it('maps search results to provider tracks', async () => {
    const tracks = await audius().search('sunrise', { limit: 10, offset: 0 });
    expect(tracks).toEqual([
      {
        provider: 'audius',
        providerSongId: 'D7KyD',
        trackName: 'Sunrise Over Venice',
        artistName: 'Skyline Beats',
        duration: 247,
        isrc: 'QZES92100001',
        genre: 'Electronic',
        albumName: 'Coastline',
        releaseYear: 2021,
        thumbnails: { audius: 'https://creatornode.audius.co/content/QmArtworkSunrise/480x480.jpg' },
        links: { audius: 'https://audius.co/skylinebeats/sunrise-over-venice' },
      },
    ]);
    const [search] = standIn.server.calls('/v1/tracks/search');
    expect(Object.fromEntries(search!.query)).toEqual({ query: 'sunrise', limit: '10', offset: '0', app_name: 'spinroom-test' });
  });

  it('reads the older release-date format and a track without artwork', async () => {
    const [track] = await audius().search('city lights');
    expect(track).toEqual({
      provider: 'audius',
      providerSongId: 'Ka8Zq',
      trackName: 'City Lights',
      artistName: 'MC Nova',
      duration: 182,
      genre: 'Hip-Hop/Rap',
      releaseYear: 2023,
      links: { audius: 'https://audius.co/mcnova/city-lights' },
    });
  });

  it('gets a track by id, and null for one Audius does not know', async () => {
    const provider = audius();
    expect(await provider.track('Ka8Zq')).toMatchObject({ trackName: 'City Lights' });
    expect(await provider.track('zzzzz')).toBeNull();
    expect(await provider.track('../users/nlGNe')).toBeNull();
    expect(standIn.server.calls('/v1/tracks/')).toHaveLength(2);
    expect(standIn.server.calls('/v1/tracks/Ka8Zq')[0]!.query.get('app_name')).toBe('spinroom-test');
  });

  it('finds a track by ISRC', async () => {
    const provider = audius();
    expect(await provider.trackByIsrc('QZES92100001')).toMatchObject({ providerSongId: 'D7KyD' });
    expect(standIn.server.calls('/v1/tracks')[0]!.query.get('isrc')).toBe('QZES92100001');
    expect(await provider.trackByIsrc('USAAA0000000')).toBeNull();
  });

  it('turns a 5xx into a 502 naming Audius, without its error text', async () => {
    standIn.server.failNext(500);
    await expectAppError(audius().search('sunrise'), 502, 'Audius did not answer as expected, please try again');
    standIn.server.failNext(503);
    await expectAppError(audius().trackByIsrc('QZES92100001'), 502, /^Audius/);
  });

  it('gives up on a provider that does not answer in time (502)', async () => {
    standIn.server.stallNext(1500);
    await expectAppError(audius().track('D7KyD'), 502, /^Audius/);
  });

  it('is off without an API URL: 503 saying so', async () => {
    const provider = testProviders({}).providers.audius;
    expect(provider.enabled).toBe(false);
    await expectAppError(provider.search('sunrise'), 503, 'Audius is not configured on this server');
    await expectAppError(provider.track('D7KyD'), 503, 'Audius is not configured on this server');
    await expectAppError(provider.trackByIsrc('QZES92100001'), 503, 'Audius is not configured on this server');
    expect(standIn.server.requests).toHaveLength(0);
  });
});
