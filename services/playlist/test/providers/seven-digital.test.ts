import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { oauth1Signature } from '../../src/providers/seven-digital.js';
import { SEVEN_DIGITAL_CONSUMER, startSevenDigitalStandIn } from '../stand-ins/seven-digital.js';
import { expectAppError, testProviders } from './helpers.js';

describe('7digital provider against its stand-in', () => {
  let standIn: Awaited<ReturnType<typeof startSevenDigitalStandIn>>;
  const env = () => ({
    SEVEN_DIGITAL_API_URL: standIn.url,
    SEVEN_DIGITAL_PREVIEWS_URL: standIn.url,
    SEVEN_DIGITAL_CONSUMER_KEY: SEVEN_DIGITAL_CONSUMER.key,
    SEVEN_DIGITAL_CONSUMER_SECRET: SEVEN_DIGITAL_CONSUMER.secret,
  });
  const sevenDigital = (overrides: Record<string, string> = {}) => testProviders({ ...env(), ...overrides }).providers.sevenDigital;

  beforeAll(async () => {
    standIn = await startSevenDigitalStandIn();
  });
  afterAll(() => standIn.close());
  beforeEach(() => {
    standIn.server.requests.length = 0;
  });

  it('maps search results to provider tracks, asking for JSON with the consumer key on the query', async () => {
    const tracks = await sevenDigital().search('brilliance', { country: 'gb' });
    expect(tracks).toEqual([
      {
        provider: 'sevenDigital',
        providerSongId: '11471325',
        trackName: 'Brilliance Of The Sun',
        artistName: 'A Day For Honey',
        duration: 236,
        isrc: 'USTV19800332',
        explicit: false,
        albumName: 'A Day For Honey',
        releaseYear: 2010,
        thumbnails: { sevenDigital: 'https://artwork-cdn.7static.com/static/img/sleeveart/00/010/440/0001044021_350.jpg' },
        links: { sevenDigital: 'https://us.7digital.com/artist/a-day-for-honey/release/a-day-for-honey-1044021?partner=1401' },
      },
    ]);
    const [search] = standIn.server.calls('/1.2/track/search');
    expect(search!.headers.accept).toBe('application/json');
    expect(Object.fromEntries(search!.query)).toEqual({
      q: 'brilliance',
      page: '1',
      pageSize: '20',
      country: 'GB',
      usageTypes: 'download',
      imageSize: '350',
      oauth_consumer_key: SEVEN_DIGITAL_CONSUMER.key,
    });
  });

  it('names a version in the title and reads the release year', async () => {
    expect(await sevenDigital().track('82910001')).toMatchObject({
      trackName: 'Midnight City (Eric Prydz Remix)',
      artistName: 'M83',
      explicit: true,
      releaseYear: 2012,
      duration: 384,
    });
  });

  it('turns an offset into the page that holds it', async () => {
    const provider = sevenDigital();
    expect((await provider.search('i', { limit: 1, offset: 1 })).map((t) => t.providerSongId)).toEqual(['82910001']);
    expect(standIn.server.calls('/1.2/track/search')[0]!.query.get('page')).toBe('2');
    expect(await provider.search('')).toEqual([]);
  });

  it('gets a track by id, and null for one 7digital does not know (error 2001)', async () => {
    const provider = sevenDigital();
    expect(await provider.track('11471325')).toMatchObject({ trackName: 'Brilliance Of The Sun' });
    expect(standIn.server.calls('/1.2/track/details')[0]!.query.get('trackId')).toBe('11471325');
    expect(await provider.track('99999999')).toBeNull();
    expect(await provider.track('abc')).toBeNull();
    expect(standIn.server.calls('/1.2/track/details')).toHaveLength(2);
  });

  it('finds a track by ISRC by searching for it and matching it exactly', async () => {
    const provider = sevenDigital();
    expect(await provider.trackByIsrc('fr6v81141070')).toMatchObject({ providerSongId: '82910001' });
    expect(standIn.server.calls('/1.2/track/search')[0]!.query.get('q')).toBe('FR6V81141070');
    expect(await provider.trackByIsrc('FR6V8114107')).toBeNull();
  });

  it('signs preview clip urls that the clip server accepts', async () => {
    const clip = sevenDigital().previewUrl('11471325', { country: 'gb' });
    expect(clip).toMatch(
      /\/clip\/11471325\?country=GB&oauth_consumer_key=7d-test-key&oauth_nonce=\w+&oauth_signature_method=HMAC-SHA1&oauth_timestamp=\d+&oauth_version=1\.0&oauth_signature=/,
    );
    const answer = await fetch(clip!);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('ID3-fake-mp3-bytes');
    const tampered = clip!.replace('/clip/11471325', '/clip/82910001');
    expect((await fetch(tampered)).status).toBe(401);
    expect(sevenDigital({ SEVEN_DIGITAL_CONSUMER_SECRET: '' }).previewUrl('11471325')).toBeNull();
  });

  it('computes OAuth 1.0 HMAC-SHA1 signatures as the specification does', () => {
    // OAuth Core 1.0 appendix A.5 (consumer and token secrets).
    const url = new URL('http://photos.example.net/photos?file=vacation.jpg&size=original');
    for (const [key, value] of Object.entries({
      oauth_consumer_key: 'dpf43f3p2l4k3l03',
      oauth_token: 'nnch734d00sl2jdk',
      oauth_signature_method: 'HMAC-SHA1',
      oauth_timestamp: '1191242096',
      oauth_nonce: 'kllo9940pd9333jh',
      oauth_version: '1.0',
    })) {
      url.searchParams.set(key, value);
    }
    expect(oauth1Signature('GET', url, 'kd94hf93k423kf44', 'pfkkdhi9sl3r4s00')).toBe('tR3+Ty81lMeYAr/Fid0kMTYa/WM=');
  });

  it('fails with 502, once, when 7digital refuses the consumer key', async () => {
    await expectAppError(
      sevenDigital({ SEVEN_DIGITAL_CONSUMER_KEY: 'wrong' }).search('brilliance'),
      502,
      /^7digital did not answer as expected/,
    );
    expect(standIn.server.requests).toHaveLength(1);
  });

  it('turns a 5xx into a 502 naming 7digital, without its error text', async () => {
    standIn.server.failNext(500);
    await expectAppError(sevenDigital().track('11471325'), 502, '7digital did not answer as expected, please try again');
  });

  it('gives up on a provider that does not answer in time (502)', async () => {
    standIn.server.stallNext(1500);
    await expectAppError(sevenDigital().search('brilliance'), 502, /^7digital/);
  });

  it('is off without a consumer key: 503 saying so', async () => {
    const provider = testProviders({ SEVEN_DIGITAL_API_URL: standIn.url }).providers.sevenDigital;
    expect(provider.enabled).toBe(false);
    await expectAppError(provider.search('brilliance'), 503, '7digital is not configured on this server');
    await expectAppError(provider.track('11471325'), 503, '7digital is not configured on this server');
    await expectAppError(provider.trackByIsrc('USTV19800332'), 503, '7digital is not configured on this server');
    expect(() => provider.previewUrl('11471325')).toThrow('7digital is not configured on this server');
    expect(standIn.server.requests).toHaveLength(0);
  });
});
