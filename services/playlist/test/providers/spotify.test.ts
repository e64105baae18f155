import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SPOTIFY_CLIENT, startSpotifyStandIn } from '../stand-ins/spotify.js';
import { expectAppError, testProviders } from './helpers.js';

describe('Spotify provider against its stand-in', () => {
  let standIn: Awaited<ReturnType<typeof startSpotifyStandIn>>;
  const env = () => ({
    SPOTIFY_API_URL: standIn.url,
    SPOTIFY_ACCOUNTS_URL: standIn.url,
    SPOTIFY_CLIENT_ID: SPOTIFY_CLIENT.id,
    SPOTIFY_CLIENT_SECRET: SPOTIFY_CLIENT.secret,
  });
  const spotify = () => testProviders(env()).providers.spotify;

  beforeAll(async () => {
    standIn = await startSpotifyStandIn();
  });
  afterAll(() => standIn.close());
  beforeEach(() => {
    standIn.server.requests.length = 0;
    standIn.tokens.refuseAll = false;
  });

  it('maps search results to provider tracks', async () => {
    const tracks = await spotify().search('one more time', { limit: 5, offset: 0, country: 'gb' });
    expect(tracks).toEqual([
      {
        provider: 'spotify',
        providerSongId: '0DiWol3AO6WpXZgp0goxAV',
        trackName: 'One More Time',
        artistName: 'Daft Punk',
        duration: 320,
        isrc: 'GBDUW0000053',
        explicit: false,
        albumName: 'Discovery',
        releaseYear: 2001,
        thumbnails: { spotify: 'https://i.scdn.co/image/ab67616d00001e02b33d46dfa2635a47eebf63b2' },
        links: { spotify: 'https://open.spotify.com/track/0DiWol3AO6WpXZgp0goxAV' },
        previews: { spotify: 'https://p.scdn.co/mp3-preview/c27897e8eb4c0910e052c9beb6711432f3630879' },
      },
    ]);
    const [search] = standIn.server.calls('/v1/search');
    expect(Object.fromEntries(search!.query)).toEqual({ q: 'one more time', type: 'track', limit: '5', offset: '0', market: 'GB' });
    expect(search!.headers.authorization).toMatch(/^Bearer spotify-/);
  });

  it('joins several artists, reads a year-only release date, and leaves out a missing preview', async () => {
    const [track] = await spotify().search('sicko');
    expect(track).toMatchObject({ artistName: 'Travis Scott, Drake', explicit: true, releaseYear: 2018, duration: 313 });
    expect(track).not.toHaveProperty('previews');
    expect(standIn.server.calls('/v1/search')[0]!.query.get('limit')).toBe('20');
  });

  it('caps the page size at 50 and finds nothing for an empty query without asking', async () => {
    await spotify().search('daft', { limit: 500 });
    expect(standIn.server.calls('/v1/search')[0]!.query.get('limit')).toBe('50');
    expect(await spotify().search('   ')).toEqual([]);
    expect(standIn.server.calls('/v1/search')).toHaveLength(1);
  });

  it('gets a track by id, and null for one Spotify does not know', async () => {
    const provider = spotify();
    expect(await provider.track('2xLMifQCjDGFmkHkpNLD9h')).toMatchObject({
      providerSongId: '2xLMifQCjDGFmkHkpNLD9h',
      trackName: 'SICKO MODE',
    });
    expect(await provider.track('0000000000000000000000')).toBeNull();
    expect(await provider.track('not a spotify id')).toBeNull();
    expect(standIn.server.calls('/v1/tracks/')).toHaveLength(2);
  });

  it('finds a track by ISRC with the isrc: search filter', async () => {
    const provider = spotify();
    expect(await provider.trackByIsrc('ussm11808176')).toMatchObject({ providerSongId: '2xLMifQCjDGFmkHkpNLD9h', isrc: 'USSM11808176' });
    expect(standIn.server.calls('/v1/search')[0]!.query.get('q')).toBe('isrc:USSM11808176');
    expect(await provider.trackByIsrc('QZZZZ9999999')).toBeNull();
  });

  it('asks for one token for many calls, and a new one once it has expired', async () => {
    const { providers, clock } = testProviders(env());
    await providers.spotify.search('daft');
    await providers.spotify.track('0DiWol3AO6WpXZgp0goxAV');
    await providers.spotify.trackByIsrc('GBDUW0000053');
    expect(standIn.tokenRequests()).toBe(1);
    clock.advance(3600);
    await providers.spotify.search('daft');
    expect(standIn.tokenRequests()).toBe(2);
    const grant = standIn.server.calls('/api/token')[0]!;
    expect(grant.body).toBe('grant_type=client_credentials');
    expect(grant.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('shares one token request between calls made at the same time', async () => {
    const provider = spotify();
    await Promise.all([provider.search('daft'), provider.search('sicko'), provider.track('0DiWol3AO6WpXZgp0goxAV')]);
    expect(standIn.tokenRequests()).toBe(1);
  });

  it('refreshes a refused token and tries once more', async () => {
    const provider = spotify();
    await provider.search('daft');
    standIn.tokens.expireAll();
    expect(await provider.track('0DiWol3AO6WpXZgp0goxAV')).toMatchObject({ trackName: 'One More Time' });
    expect(standIn.tokenRequests()).toBe(2);
    expect(standIn.server.calls('/v1/tracks/')).toHaveLength(2);
  });

  it('retries only once: a second 401 is a 502', async () => {
    const provider = spotify();
    standIn.tokens.refuseAll = true;
    await expectAppError(provider.search('daft'), 502, /^Spotify did not answer as expected/);
    expect(standIn.server.calls('/v1/search')).toHaveLength(2);
    expect(standIn.tokenRequests()).toBe(2);
  });

  it('turns a 5xx into a 502 naming Spotify, without its error text', async () => {
    const provider = spotify();
    standIn.server.failNext(503);
    await expectAppError(provider.search('daft'), 502, 'Spotify did not answer as expected, please try again');
    standIn.server.failNext(500);
    await expectAppError(provider.track('0DiWol3AO6WpXZgp0goxAV'), 502, /Spotify/);
  });

  it('gives up on a provider that does not answer in time (502)', async () => {
    const provider = spotify();
    standIn.server.stallNext(1500);
    await expectAppError(provider.search('daft'), 502, /^Spotify/);
  });

  it('fails with 502 when the accounts service refuses the client credentials', async () => {
    const provider = testProviders({ ...env(), SPOTIFY_CLIENT_SECRET: 'wrong' }).providers.spotify;
    await expectAppError(provider.search('daft'), 502, /^Spotify/);
    expect(standIn.server.calls('/v1/search')).toHaveLength(0);
  });

  it('is off without credentials: 503 saying so, and no call', async () => {
    const provider = testProviders({ SPOTIFY_API_URL: standIn.url }).providers.spotify;
    expect(provider.enabled).toBe(false);
    await expectAppError(provider.search('daft'), 503, 'Spotify is not configured on this server');
    await expectAppError(provider.track('0DiWol3AO6WpXZgp0goxAV'), 503, 'Spotify is not configured on this server');
    await expectAppError(provider.trackByIsrc('GBDUW0000053'), 503, 'Spotify is not configured on this server');
    expect(standIn.server.requests).toHaveLength(0);
  });

  it("refuses a user's token that a header cannot carry as the caller's 400, not a 502 from fetch", async () => {
    // fetch throws "Cannot convert argument to a ByteString" on a non-Latin-1 header value.
    await expectAppError(
      spotify().exportPlaylist('tøken-✓', 'Mix', '', ['0DiWol3AO6WpXZgp0goxAV']),
      400,
      'The credentials for Spotify must be printable ASCII',
    );
    expect(standIn.server.requests).toHaveLength(0);
  });
});
