import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MusicCatalogueProvider } from '../../src/providers/index.js';
import { isoDurationSeconds } from '../../src/providers/youtube.js';
import { startYouTubeStandIn, YOUTUBE_KEY } from '../stand-ins/youtube.js';
import { expectAppError, testProviders } from './helpers.js';

describe('YouTube provider against its stand-in', () => {
  let standIn: Awaited<ReturnType<typeof startYouTubeStandIn>>;
  const youtube = (key = YOUTUBE_KEY) => testProviders({ YOUTUBE_API_URL: standIn.url, YOUTUBE_API_KEY: key }).providers.youtube;

  beforeAll(async () => {
    standIn = await startYouTubeStandIn();
  });
  afterAll(() => standIn.close());
  beforeEach(() => {
    standIn.server.requests.length = 0;
  });

  it('searches music videos, then reads their durations from videos.list', async () => {
    const tracks = await youtube().search('midnight city', { country: 'fr' });
    expect(tracks.map((t) => t.providerSongId)).toEqual(['dX3k_QDnzHE', '1mUJZgGhvyk', 'Zx6_kX9nZ1s']);
    expect(tracks[0]).toEqual({
      provider: 'youtube',
      providerSongId: 'dX3k_QDnzHE',
      // From videos.list, without the HTML entities search.list puts in titles.
      trackName: "M83 'Midnight City' Official video",
      artistName: 'M83VEVO',
      duration: 244,
      thumbnails: { youtube: 'https://i.ytimg.com/vi/dX3k_QDnzHE/mqdefault.jpg' },
      links: { youtube: 'https://www.youtube.com/watch?v=dX3k_QDnzHE' },
    });
    const [search] = standIn.server.calls('/youtube/v3/search');
    expect(Object.fromEntries(search!.query)).toEqual({
      part: 'snippet',
      type: 'video',
      videoCategoryId: '10',
      q: 'midnight city',
      maxResults: '20',
      regionCode: 'FR',
      key: YOUTUBE_KEY,
    });
    const [videos] = standIn.server.calls('/youtube/v3/videos');
    expect(videos!.query.get('part')).toBe('contentDetails,snippet');
    expect(videos!.query.get('id')).toBe('dX3k_QDnzHE,1mUJZgGhvyk,Zx6_kX9nZ1s');
  });

  it('drops " - Topic" from artist channels and marks age-restricted videos explicit', async () => {
    const [, topic, loop] = await youtube().search('midnight city');
    expect(topic).toMatchObject({ artistName: 'M83', duration: 243 });
    expect(topic).not.toHaveProperty('explicit');
    expect(loop).toMatchObject({ explicit: true, duration: 3612 });
  });

  it('serves an offset from the first 50 results', async () => {
    const provider = youtube();
    expect((await provider.search('midnight', { limit: 1, offset: 1 })).map((t) => t.providerSongId)).toEqual(['1mUJZgGhvyk']);
    expect(standIn.server.calls('/youtube/v3/search')[0]!.query.get('maxResults')).toBe('2');
    expect(await provider.search('midnight', { offset: 50 })).toEqual([]);
    expect(await provider.search('nothing like this')).toEqual([]);
    expect(standIn.server.calls('/youtube/v3/videos')).toHaveLength(1);
  });

  it('gets a video by id, and null for one YouTube does not know', async () => {
    const provider = youtube();
    expect(await provider.track('1mUJZgGhvyk')).toMatchObject({ trackName: 'Midnight City', duration: 243 });
    expect(await provider.track('aaaaaaaaaaa')).toBeNull();
    expect(await provider.track('https://youtu.be/1mUJZgGhvyk')).toBeNull();
    expect(standIn.server.calls('/youtube/v3/videos')).toHaveLength(2);
    expect((provider as MusicCatalogueProvider).trackByIsrc).toBeUndefined();
  });

  it('reads ISO 8601 durations', () => {
    expect(isoDurationSeconds('PT4M13S')).toBe(253);
    expect(isoDurationSeconds('PT1H2M')).toBe(3720);
    expect(isoDurationSeconds('PT45S')).toBe(45);
    expect(isoDurationSeconds('P1DT2S')).toBe(86_402);
    expect(isoDurationSeconds('P0D')).toBe(0);
    expect(isoDurationSeconds('soon')).toBe(0);
  });

  it('fails with 502, once, when Google refuses the API key (a key is not refreshed)', async () => {
    await expectAppError(youtube('wrong-key').search('midnight'), 502, /^YouTube did not answer as expected/);
    expect(standIn.server.requests).toHaveLength(1);
  });

  it('turns a 5xx into a 502 naming YouTube, without its error text', async () => {
    standIn.server.failNext(500);
    await expectAppError(youtube().track('1mUJZgGhvyk'), 502, 'YouTube did not answer as expected, please try again');
  });

  it('gives up on a provider that does not answer in time (502)', async () => {
    standIn.server.stallNext(1500);
    await expectAppError(youtube().search('midnight'), 502, /^YouTube/);
  });

  it('is off without an API key: 503 saying so', async () => {
    const provider = testProviders({ YOUTUBE_API_URL: standIn.url }).providers.youtube;
    expect(provider.enabled).toBe(false);
    await expectAppError(provider.search('midnight'), 503, 'YouTube is not configured on this server');
    await expectAppError(provider.track('1mUJZgGhvyk'), 503, 'YouTube is not configured on this server');
    expect(standIn.server.requests).toHaveLength(0);
  });
});
