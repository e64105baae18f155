// Choosing a source per listener and the room's player across providers
// (spec 002 "Playback"; issue 20): preference order, links, anonymous video
// first, previews, the free preview limit, fallbacks with their reasons, one
// provider at a time, no restart of the same song, drift sought away, and the
// provider heard for play tracking. The adapters themselves run in Chromium
// against stand-ins of each SDK (test/e2e/web-playback.test.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NowPlaying, Song } from '../src/api/types';
import { previewSources, providersToFind, songSources } from '../src/playback/choose';
import { heardProvider } from '../src/playback/heard';
import { PlaybackFailure } from '../src/playback/loadScript';
import { countPreviewSong, mayPreview, previewSongsHeard } from '../src/playback/previewLimit';
import type { PlayerContext, PlaySource, ProviderPlayer } from '../src/playback/types';
import { ServerClock } from '../src/rooms/clock';

const found = vi.hoisted(() => ({ value: undefined as { provider: string; id: string } | undefined, asked: [] as string[][] }));
vi.mock('../src/playback/resolve', () => ({
  findOnProviders: (_song: Song, providers: string[]) => {
    found.asked.push(providers);
    return Promise.resolve(providers.includes(found.value?.provider ?? '') ? found.value : undefined);
  },
}));

/** Adapter doubles: what each provider has, what they were told. */
const fake = vi.hoisted(() => ({
  has: new Map<string, Set<string>>(),
  expired: new Set<string>(),
  log: [] as string[],
  positions: new Map<string, number>(),
}));
vi.mock('../src/playback/adapters', () => ({
  createAdapter: (provider: string, preview: boolean): Promise<ProviderPlayer> => {
    const name = preview ? `${provider}-preview` : provider;
    fake.log.push(`create ${name}`);
    const adapter: ProviderPlayer = {
      provider: provider as ProviderPlayer['provider'],
      play: (source: PlaySource, at: () => number) => {
        fake.log.push(`play ${name} ${source.id ?? source.url} at ${Math.round(at())}`);
        if (!preview && fake.expired.has(provider)) return Promise.reject(new PlaybackFailure('tokenExpired'));
        if (!preview && !fake.has.get(provider)?.has(source.id ?? '')) return Promise.reject(new PlaybackFailure('songMissing'));
        fake.positions.set(name, at());
        return Promise.resolve();
      },
      position: () => Promise.resolve(fake.positions.get(name)),
      seek: (s: number) => {
        fake.log.push(`seek ${name} ${Math.round(s)}`);
        fake.positions.set(name, s);
        return Promise.resolve();
      },
      pause: () => Promise.resolve(),
      resume: () => Promise.resolve(),
      setVolume: () => {},
      stop: () => {
        fake.log.push(`stop ${name}`);
      },
    };
    return Promise.resolve(adapter);
  },
}));

const { SyncedPlayer } = await import('../src/rooms/player');

const song = (providers: Record<string, string>, extra: Partial<Song> = {}): Song => ({
  songId: 'song-1',
  trackName: 'Together',
  artistName: 'The Listeners',
  duration: 200,
  musicProviders: providers,
  ...extra,
});
const signedIn = (...linked: string[]) => ({ loggedIn: true, linked: new Set(linked) });
const anonymous = { loggedIn: false, linked: new Set<string>() };

describe('choosing a source per listener', () => {
  const all = { apple: 'a1', spotify: 's1', youtube: 'y1', audius: 'au1', soundCloudPublic: 'sc1', sevenDigital: '7d1' };

  it('follows the preference order: Apple and Spotify through a link, then YouTube, Audius, SoundCloud, 7digital', () => {
    expect(songSources(song(all), signedIn('apple', 'spotify')).map((s) => s.provider)).toEqual([
      'apple',
      'spotify',
      'youtube',
      'audius',
      'soundCloudPublic',
      'sevenDigital',
    ]);
    expect(songSources(song(all), signedIn('spotify')).map((s) => s.provider)[0]).toBe('spotify');
    expect(songSources(song(all), signedIn()).map((s) => s.provider)[0]).toBe('youtube');
    expect(songSources(song({ spotify: 's1' }), signedIn()).map((s) => s.provider)).toEqual([]);
  });

  it('gives anonymous visitors video first, never a linked provider', () => {
    expect(songSources(song(all), anonymous).map((s) => s.provider)).toEqual(['youtube', 'audius', 'soundCloudPublic', 'sevenDigital']);
  });

  it('plays an upload only from its HLS playlist, and carries what each provider needs', () => {
    expect(songSources(song({ uploadService: 'up-1', spotify: 's1' }), signedIn('spotify'))).toEqual([
      { provider: 'uploadService', url: '/api/upload-service/songs/up-1/hls-playlist' },
    ]);
    const [sc, sd] = songSources(song({ soundCloudPublic: '55', sevenDigital: '77' }, { playbackToken: 's-secret' }), signedIn());
    expect(sc).toEqual({ provider: 'soundCloudPublic', id: '55', secret: 's-secret' });
    expect(sd).toEqual({ provider: 'sevenDigital', id: '77', songId: 'song-1' });
  });

  it('looks up only linked providers the song is not known on; previews come in the preference order', () => {
    expect(providersToFind(song({ youtube: 'y1' }), signedIn('apple', 'spotify', 'soundCloudPublic'))).toEqual(['apple', 'spotify']);
    expect(providersToFind(song({ apple: 'a1' }), signedIn('apple', 'spotify'))).toEqual(['spotify']);
    expect(providersToFind(song({ youtube: 'y1' }), anonymous)).toEqual([]);
    const previews = previewSources(
      song({}, { previews: { soundCloudPublic: 'https://p/sc.mp3', apple: 'https://p/a.m4a', bad: 'javascript:x' } }),
    );
    expect(previews.map((p) => p.provider)).toEqual(['apple', 'soundCloudPublic']);
    expect(previews[0]).toMatchObject({ preview: true, url: 'https://p/a.m4a' });
  });
});

describe('the free preview limit', () => {
  beforeEach(() => localStorage.clear());

  it('lets a play already counted go on, counts each song once and stops new ones at the limit', () => {
    expect(mayPreview('a|1', 2)).toBe(true);
    countPreviewSong('a|1');
    countPreviewSong('a|1');
    countPreviewSong('b|2');
    expect(previewSongsHeard()).toBe(2);
    expect(mayPreview('a|1', 2)).toBe(true);
    expect(mayPreview('c|3', 2)).toBe(false);
  });
});

describe("the room's player across providers", () => {
  const clock = new ServerClock();
  const ctx = {} as PlayerContext;
  let now = 1_000_000;
  const playingAt = (s: Song, secondsIn: number): NowPlaying => ({
    song: s,
    startTime: now - secondsIn * 1000,
    endTime: now + (s.duration - secondsIn) * 1000,
  });

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(now);
    localStorage.clear();
    fake.has = new Map([
      ['apple', new Set(['a1'])],
      ['spotify', new Set(['s1'])],
      ['youtube', new Set(['y1', 'y2'])],
    ]);
    fake.expired.clear();
    fake.log = [];
    fake.positions.clear();
    found.value = undefined;
    found.asked = [];
  });
  afterEach(() => {
    vi.useRealTimers();
    now += 1_000_000;
  });

  it('plays on the first provider that has the song, at the room position, and says which', async () => {
    const player = new SyncedPlayer(clock, ctx, () => Promise.resolve(signedIn('spotify')));
    await player.play(playingAt(song({ apple: 'a1', spotify: 's1', youtube: 'y1' }), 42));
    expect(fake.log).toEqual(['create spotify', 'play spotify s1 at 42']);
    expect(player.snapshot).toMatchObject({ state: 'playing', provider: 'spotify' });
    expect(heardProvider()).toMatchObject({ provider: 'spotify', preview: false, songId: 'song-1' });
    player.stop();
    expect(heardProvider()).toBeUndefined();
  });

  it('does not restart the same song, stops one provider before another starts, and falls back past a missing song', async () => {
    const player = new SyncedPlayer(clock, ctx, () => Promise.resolve(signedIn('spotify')));
    const first = playingAt(song({ spotify: 's1', youtube: 'y1' }), 10);
    await player.play(first);
    await player.play({ ...first, song: { ...first.song } });
    expect(fake.log.filter((l) => l.startsWith('play'))).toHaveLength(1);
    await player.play(playingAt(song({ spotify: 'gone', youtube: 'y2' }, { songId: 'song-2' }), 5));
    expect(fake.log.slice(2)).toEqual(['play spotify gone at 5', 'stop spotify', 'create youtube', 'play youtube y2 at 5']);
    expect(player.snapshot).toMatchObject({ state: 'playing', provider: 'youtube' });
  });

  it('finds the song on a linked provider by ISRC or sameness before a preview, and names the reason when nothing plays', async () => {
    found.value = { provider: 'apple', id: 'a1' };
    const player = new SyncedPlayer(clock, ctx, () => Promise.resolve(signedIn('apple')));
    await player.play(playingAt(song({ spotify: 's1' }, { previews: { spotify: 'https://p/s.mp3' } }), 3));
    expect(found.asked).toEqual([['apple']]);
    expect(player.snapshot).toMatchObject({ state: 'playing', provider: 'apple' });

    fake.expired.add('apple');
    await player.play(playingAt(song({ apple: 'a1' }, { songId: 'song-3', previews: { apple: 'https://p/a.m4a' } }), 3));
    expect(player.snapshot).toMatchObject({ state: 'playing', provider: 'apple', preview: true });

    await player.play(playingAt(song({ apple: 'a1' }, { songId: 'song-4' }), 3));
    expect(player.snapshot).toEqual({
      state: 'unavailable',
      reason: { key: 'playbackFailed', failure: 'tokenExpired', provider: 'Apple Music' },
    });
    found.value = undefined;
    await player.play(playingAt(song({ deezer: 'd1' }, { songId: 'song-5' }), 3));
    expect(player.snapshot).toEqual({ state: 'unavailable', reason: { key: 'songOnProviders', providers: ['Deezer'] } });
  });

  it('seeks a provider that drifted more than a second', async () => {
    const player = new SyncedPlayer(clock, ctx, () => Promise.resolve(signedIn()));
    await player.play(playingAt(song({ youtube: 'y1' }), 20));
    fake.positions.set('youtube', 30);
    await vi.advanceTimersByTimeAsync(3000);
    expect(fake.log.at(-1)).toBe('seek youtube 23');
    // Half a second off three seconds later (the room is at 26 s): left alone.
    fake.positions.set('youtube', 26.5);
    await vi.advanceTimersByTimeAsync(3000);
    expect(fake.log.at(-1)).toBe('seek youtube 23');
    player.stop();
  });

  it('stops an anonymous visitor after the free songs, counting only songs that played', async () => {
    const player = new SyncedPlayer(clock, ctx, () => Promise.resolve(anonymous));
    for (let i = 0; i < 3; i++) {
      await player.play(playingAt(song({ spotify: 's1' }, { songId: `nothing-${i}` }), 1));
      await player.play(playingAt(song({ youtube: 'y1' }, { songId: `heard-${i}` }), 1));
      expect(player.snapshot.state).toBe('playing');
    }
    expect(previewSongsHeard()).toBe(3);
    await player.play(playingAt(song({ youtube: 'y1' }, { songId: 'one-too-many' }), 1));
    expect(player.snapshot).toEqual({ state: 'limit', reason: { key: 'previewLimitReached' } });
    expect(heardProvider()).toBeUndefined();
  });
});

describe('the server clock', () => {
  it('is not moved back by a ping that arrived late, and follows the server within its recent observations', () => {
    const clock = new ServerClock();
    clock.observe(10_000, 4_000); // the server is 6 s ahead
    clock.observe(20_000, 21_700); // a ping delivered 7.7 s late
    expect(clock.offset).toBe(6_000);
    for (let i = 0; i < 10; i++) clock.observe(30_000 + i, 25_000 + i); // the server now 5 s ahead, ten times
    expect(clock.offset).toBe(5_000);
  });
});
