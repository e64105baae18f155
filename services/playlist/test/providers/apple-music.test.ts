import { generateKeyPairSync } from 'node:crypto';
import { ConfigError } from '@spinroom/platform';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APPLE_KEY_ID, APPLE_TEAM_ID, startAppleMusicStandIn } from '../stand-ins/apple-music.js';
import { expectAppError, TestClock, testProviders } from './helpers.js';

describe('Apple Music provider against its stand-in', () => {
  const clock = new TestClock();
  let standIn: Awaited<ReturnType<typeof startAppleMusicStandIn>>;
  const env = () => ({
    APPLE_MUSIC_API_URL: standIn.url,
    APPLE_MUSIC_TEAM_ID: APPLE_TEAM_ID,
    APPLE_MUSIC_KEY_ID: APPLE_KEY_ID,
    // As it sits on one line of an env file.
    APPLE_MUSIC_PRIVATE_KEY: standIn.privateKeyPem.replace(/\n/g, '\\n'),
  });
  const apple = () => testProviders(env(), clock).providers.apple;

  beforeAll(async () => {
    standIn = await startAppleMusicStandIn(clock.now);
  });
  afterAll(() => standIn.close());
  beforeEach(() => {
    standIn.server.requests.length = 0;
    standIn.state.refuseAll = false;
  });

  it('maps catalog search results to provider tracks', async () => {
    const tracks = await apple().search('invitation', { country: 'GB' });
    expect(tracks).toEqual([
      {
        provider: 'apple',
        providerSongId: '897072750',
        trackName: 'Invitation (Live)',
        artistName: 'Ahmad Jamal',
        duration: 672,
        isrc: 'FR5FH1300035',
        genre: 'Jazz',
        explicit: false,
        albumName: 'Live At the Olympia - June 27, 2012 (Live) [feat. Yusef Lateef]',
        releaseYear: 2014,
        thumbnails: {
          apple:
            'https://is5-ssl.mzstatic.com/image/thumb/Music4/v4/d1/5e/bf/d15ebf24-733b-980d-d582-e27f72001ff8/3149027001014.jpg/256x256bb.jpeg',
        },
        links: { apple: 'https://music.apple.com/us/album/invitation-live/897072740?i=897072750' },
        previews: {
          apple:
            'https://audio-ssl.itunes.apple.com/itunes-assets/Music6/v4/d0/fb/ac/d0fbac69-1a09-9e09-99d7-0ce20dca9a31/mzaf_3801033891693354111.plus.aac.p.m4a',
        },
      },
    ]);
    const [search] = standIn.server.calls('/v1/catalog/gb/search');
    expect(Object.fromEntries(search!.query)).toEqual({ term: 'invitation', types: 'songs', limit: '25', offset: '0' });
  });

  it('signs an ES256 developer token with the key id and team id', async () => {
    await apple().search('gata');
    const token = standIn.server.requests[0]!.headers.authorization!.replace(/^Bearer /, '');
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', kid: APPLE_KEY_ID });
    const claims = decodeJwt(token);
    expect(claims.iss).toBe(APPLE_TEAM_ID);
    expect(claims.iat).toBe(clock.ms / 1000);
    expect(claims.exp! - claims.iat!).toBe(12 * 3600);
  });

  it('reads explicit songs, answers an empty search, and keeps to pages of 25', async () => {
    const provider = apple();
    expect(await provider.search('gata', { limit: 100 })).toEqual([
      expect.objectContaining({ providerSongId: '1727813561', explicit: true, genre: 'Latin', duration: 222, releaseYear: 2024 }),
    ]);
    expect(standIn.server.calls('/v1/catalog/us/search')[0]!.query.get('limit')).toBe('25');
    expect(await provider.search('nothing like this')).toEqual([]);
    expect(await provider.search('')).toEqual([]);
    expect(standIn.server.calls('/v1/catalog/us/search')).toHaveLength(2);
  });

  it('gets a song by id in the storefront, and null for one Apple does not know', async () => {
    const provider = apple();
    expect(await provider.track('1727813561', { country: 'mx' })).toMatchObject({
      trackName: 'Gata Only',
      artistName: 'FloyyMenor & Cris Mj',
    });
    expect(standIn.server.calls('/v1/catalog/mx/songs/1727813561')).toHaveLength(1);
    expect(await provider.track('123')).toBeNull();
    expect(await provider.track('pl.u-not-a-song')).toBeNull();
    expect(standIn.server.calls('/v1/catalog/')).toHaveLength(2);
  });

  it('finds a song by ISRC with filter[isrc]', async () => {
    const provider = apple();
    expect(await provider.trackByIsrc('fr5fh1300035')).toMatchObject({ providerSongId: '897072750', isrc: 'FR5FH1300035' });
    expect(standIn.server.calls('/v1/catalog/us/songs')[0]!.query.get('filter[isrc]')).toBe('FR5FH1300035');
    expect(await provider.trackByIsrc('USAAA0000000')).toBeNull();
  });

  it('signs one developer token for many calls, and a new one when it nears its end', async () => {
    const provider = apple();
    await provider.search('gata');
    await provider.track('897072750');
    await provider.trackByIsrc('FR5FH1300035');
    expect(standIn.tokensSeen()).toBe(1);
    clock.advance(12 * 3600);
    await provider.track('897072750');
    expect(standIn.tokensSeen()).toBe(2);
  });

  it('signs a new token when Apple refuses one, and tries once more', async () => {
    const provider = apple();
    await provider.search('gata');
    standIn.revokeAll();
    expect(await provider.track('897072750')).toMatchObject({ trackName: 'Invitation (Live)' });
    expect(standIn.server.calls('/v1/catalog/us/songs/897072750')).toHaveLength(2);
    expect(standIn.tokensSeen()).toBe(2);
  });

  it('retries only once: a second 401 is a 502', async () => {
    standIn.state.refuseAll = true;
    await expectAppError(apple().trackByIsrc('FR5FH1300035'), 502, /^Apple Music did not answer as expected/);
    expect(standIn.server.calls('/v1/catalog/us/songs')).toHaveLength(2);
  });

  it('turns a 5xx into a 502 naming Apple Music, without its error text', async () => {
    standIn.server.failNext(500);
    await expectAppError(apple().track('897072750'), 502, 'Apple Music did not answer as expected, please try again');
  });

  it('gives up on a provider that does not answer in time (502)', async () => {
    standIn.server.stallNext(1500);
    await expectAppError(apple().search('gata'), 502, /^Apple Music/);
  });

  it('is off without its key: 503 saying so', async () => {
    const provider = testProviders({ APPLE_MUSIC_API_URL: standIn.url }).providers.apple;
    expect(provider.enabled).toBe(false);
    await expectAppError(provider.search('gata'), 503, 'Apple Music is not configured on this server');
    await expectAppError(provider.track('897072750'), 503, 'Apple Music is not configured on this server');
    await expectAppError(provider.trackByIsrc('FR5FH1300035'), 503, 'Apple Music is not configured on this server');
    expect(standIn.server.requests).toHaveLength(0);
  });

  it('refuses to start with a key that is not a MusicKit (EC P-256) key, or without its key id', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => testProviders({ ...env(), APPLE_MUSIC_PRIVATE_KEY: rsa })).toThrow(
      /APPLE_MUSIC_PRIVATE_KEY: must be the MusicKit \.p8 key/,
    );
    expect(() => testProviders({ ...env(), APPLE_MUSIC_KEY_ID: '' })).toThrow(ConfigError);
    expect(() => testProviders({ ...env(), APPLE_MUSIC_KEY_ID: '' })).toThrow(/APPLE_MUSIC_KEY_ID: is required when/);
  });
});
