import { randomUUID } from 'node:crypto';
import {
  CATALOGUE_GENERATION_KEY,
  createLogger,
  dropDatabase,
  newEventMetadata,
  openServiceDatabase,
  Redis,
  type MikroORM,
  type ReceivedEvent,
} from '@spinroom/platform';
import { testInfra, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SongPlayed } from '@spinroom/contracts/events/v1/room_events';
import { advanceGenerationOnChanges } from '../src/db/catalogue-changes.js';
import { playlistDatabase } from '../src/db/database.js';
import { PgSongPlayStore } from '../src/db/song-play-store.js';
import { roomEventsHandler } from '../src/events/room-events.js';
import { PgSongSearch } from '../src/db/pg-song-search.js';
import {
  CachedSongSearch,
  corrections,
  deletions,
  editDistance,
  interleaveMixed,
  SEARCH_WINDOW,
  toTsQuery,
  type SongSearch,
} from '../src/domain/song-search.js';
import type { Song } from '../src/domain/song.js';
import { MIXED_SEARCH, SongData } from '../src/domain/song-data.js';
import type { MusicProviders } from '../src/providers/index.js';

describe('search rules', () => {
  it('counts a swap of neighbouring letters as one edit', () => {
    expect(editDistance('nigth', 'night')).toBe(1);
    expect(editDistance('storm', 'strom')).toBe(1);
    expect(editDistance('storm', 'storms')).toBe(1);
    expect(editDistance('storm', 'stom')).toBe(1);
    expect(editDistance('storm', 'stork')).toBe(1);
    expect(editDistance('abc', 'cba')).toBe(2);
  });

  it('corrects words of three letters or more by one edit, nearest first', () => {
    expect(deletions('abc')).toEqual(['bc', 'ac', 'ab']);
    expect(corrections('strom', ['storm', 'stream', 'strom', 'from', 'stork'])).toEqual(['storm']);
    expect(corrections('nigth', ['night', 'nigh', 'light'])).toEqual(['nigh', 'night']);
    expect(corrections('ab', ['abc', 'a'])).toEqual([]);
  });

  it('writes a tsquery with every word and the last one as a prefix, lexemes quoted', () => {
    expect(
      toTsQuery([
        { alternatives: ["don't"], prefix: false },
        { alternatives: ['nigh', 'night'], prefix: false },
        { alternatives: ['ci'], prefix: true },
      ]),
    ).toBe(`'don''t' & ('nigh' | 'night') & 'ci':*`);
  });

  it('mixes five licensed results first, then the two sources in turn', () => {
    const licensed = ['L1', 'L2', 'L3', 'L4', 'L5', 'L6', 'L7'];
    expect(interleaveMixed(licensed, ['O1', 'O2', 'O3', 'O4'])).toEqual(['L1', 'L2', 'L3', 'L4', 'L5', 'O1', 'L6', 'O2', 'L7', 'O3', 'O4']);
    expect(interleaveMixed(['L1', 'L2'], ['O1', 'O2'])).toEqual(['L1', 'L2', 'O1', 'O2']);
  });
});

describe('the mixed search (spec 002)', () => {
  const provider = (name: string, enabled: boolean, count: number) => ({
    name,
    enabled,
    asked: [] as unknown[],
    async search(query: string, options: unknown) {
      this.asked.push(options);
      if (!enabled) throw new Error(`${name} is off`);
      return Array.from({ length: count }, (_, i) => ({
        provider: name,
        providerSongId: `${name}-${i}`,
        trackName: `${query} ${name} ${i}`,
        artistName: 'A',
        duration: 100,
      }));
    },
  });
  const songData = (licensed: ReturnType<typeof provider>, other: ReturnType<typeof provider>) =>
    new SongData({ sevenDigital: licensed, soundCloudPublic: other } as unknown as MusicProviders, null as never, null as never);

  it("puts 7digital's first five first, then SoundCloud's and 7digital's in turn, each asked for its own page", async () => {
    const licensed = provider('sevenDigital', true, 7);
    const other = provider('soundCloudPublic', true, 3);
    const found = await songData(licensed, other).search(MIXED_SEARCH, 'q', { offset: 20, country: 'GB' });
    expect(found.map((s) => Object.values(s.musicProviders)[0])).toEqual([
      'sevenDigital-0',
      'sevenDigital-1',
      'sevenDigital-2',
      'sevenDigital-3',
      'sevenDigital-4',
      'soundCloudPublic-0',
      'sevenDigital-5',
      'soundCloudPublic-1',
      'sevenDigital-6',
      'soundCloudPublic-2',
    ]);
    expect(licensed.asked).toEqual([{ offset: 20, country: 'GB' }]);
    expect(await songData(licensed, other).search(MIXED_SEARCH, 'q', { limit: 6 })).toHaveLength(6);
  });

  it('mixes in nothing from a provider that is off, and fails as 7digital does when both are', async () => {
    const found = await songData(provider('sevenDigital', false, 0), provider('soundCloudPublic', true, 2)).search(MIXED_SEARCH, 'q', {});
    expect(found.map((s) => s.trackName)).toEqual(['q soundCloudPublic 0', 'q soundCloudPublic 1']);
    await expect(
      songData(provider('sevenDigital', false, 0), provider('soundCloudPublic', false, 0)).search(MIXED_SEARCH, 'q', {}),
    ).rejects.toThrow('sevenDigital is off');
  });
});

describe('the search cache', () => {
  it('answers the same search from memory until it expires, sharing one answer among searches asked at once', async () => {
    let asked = 0;
    let fail = false;
    const inner: SongSearch = {
      search: async (q) => {
        asked += 1;
        if (fail) throw new Error('down');
        return [{ trackName: `${q.text}#${asked}` } as Song];
      },
    };
    let clock = 0;
    const cached = new CachedSongSearch(inner, { ttlMs: 1000, generationTtlMs: 0, maxEntries: 2, now: () => clock });
    const q = { text: 'Storm', limit: 20, offset: 0, includeExplicit: true };
    const [a, b] = await Promise.all([cached.search(q), cached.search({ ...q, text: ' storm ' })]);
    expect(asked).toBe(1);
    expect(a).toBe(b);
    expect((await cached.search({ ...q, offset: 20 }))[0]!.trackName).toBe('Storm#2');
    expect((await cached.search({ ...q, includeExplicit: false }))[0]!.trackName).toBe('Storm#3');
    // Two entries at most: the first one (least recently used) went.
    expect((await cached.search(q))[0]!.trackName).toBe('Storm#4');
    clock = 999;
    expect((await cached.search(q))[0]!.trackName).toBe('Storm#4');
    clock = 1000;
    expect((await cached.search(q))[0]!.trackName).toBe('Storm#5');
    // A failure is not kept.
    fail = true;
    await expect(cached.search({ ...q, text: 'x' })).rejects.toThrow('down');
    fail = false;
    expect((await cached.search({ ...q, text: 'x' }))[0]!.trackName).toBe('x#7');
    expect(await new CachedSongSearch(inner, { ttlMs: 0, generationTtlMs: 0, maxEntries: 1 }).search(q)).toHaveLength(1);
    expect(asked).toBe(8);
  });

  it("reuses an answer within the caller's catalogue generation for longer, never across generations", async () => {
    let asked = 0;
    const inner: SongSearch = {
      search: async (q) => {
        asked += 1;
        return [{ trackName: `${q.text}#${asked}` } as Song];
      },
    };
    let clock = 0;
    const cached = new CachedSongSearch(inner, { ttlMs: 1000, generationTtlMs: 60_000, maxEntries: 10, now: () => clock });
    const q = { text: 'storm', limit: 20, offset: 0, includeExplicit: true };
    expect((await cached.search({ ...q, generation: 7 }))[0]!.trackName).toBe('storm#1');
    clock = 59_999;
    expect((await cached.search({ ...q, generation: 7 }))[0]!.trackName).toBe('storm#1');
    // Another generation (a song changed) asks again; so does a search that names none.
    expect((await cached.search({ ...q, generation: 8 }))[0]!.trackName).toBe('storm#2');
    expect((await cached.search(q))[0]!.trackName).toBe('storm#3');
    clock = 60_000;
    expect((await cached.search({ ...q, generation: 7 }))[0]!.trackName).toBe('storm#4');
    expect(asked).toBe(4);
  });
});

describe('catalogue search on PostgreSQL', () => {
  const databaseUrl = uniqueDatabaseUrl('playlist_search');
  let orm: MikroORM;
  let db: pg.Client;
  let search: PgSongSearch;

  const add = async (trackName: string, artistName: string, popularity: number, extra: { explicit?: boolean; albumName?: string } = {}) => {
    await db.query(
      `insert into song (song_id, song_short_id, track_name, artist_name, album_name, explicit, status, popularity, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, 'SUCCESS', $7, now(), now())`,
      [randomUUID(), randomUUID().slice(0, 12), trackName, artistName, extra.albumName ?? '', extra.explicit ?? false, popularity],
    );
  };
  const titles = async (text: string, page: { limit?: number; offset?: number; includeExplicit?: boolean } = {}) =>
    (await search.search({ text, limit: page.limit ?? 20, offset: page.offset ?? 0, includeExplicit: page.includeExplicit ?? true })).map(
      (s) => `${s.trackName} / ${s.artistName}`,
    );

  beforeAll(async () => {
    orm = await openServiceDatabase('playlist', databaseUrl, playlistDatabase);
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    search = new PgSongSearch(orm);
    // Songs inserted after the migration: the trigger learns their words for the typo tolerance.
    await add('Storm Chaser', 'Velvet Lanterns', 1000);
    await add('The Storm Inside', 'Quiet Harbour', 500);
    await add('Storm', 'Paper Kites', 0);
    await add('Blue Skies', 'Storm', 10);
    await add('Nimbus Dreams', 'Orbit Club', 900);
    await add('Ode to Nimbus', 'Glass Echo', 800);
    await add('Low Tide', 'Nimbus', 2);
    await add('Quiet Storm', 'Nimbus', 1);
    await add('Midnight Velvet', 'Neon Sunday', 50, { explicit: true });
    await add('Velvet Morning', 'Neon Sunday', 40, { albumName: 'Night City' });
    await add("Hip-Hop Don't Stop", 'Crew.Nine', 30);
  });

  afterAll(async () => {
    await search.close();
    await db.end();
    await orm.close();
    await dropDatabase(databaseUrl);
  });

  it('ranks an exact title first, then the artist of that name, then the rest by match and popularity', async () => {
    expect(await titles('storm')).toEqual([
      'Storm / Paper Kites',
      'Blue Skies / Storm',
      'Storm Chaser / Velvet Lanterns',
      'The Storm Inside / Quiet Harbour',
      'Quiet Storm / Nimbus',
    ]);
    expect(await titles('  STORM ')).toEqual(await titles('storm'));
  });

  it("puts an artist's songs before songs that only mention the artist's name in their title", async () => {
    const found = await titles('nimbus');
    expect(found.slice(0, 2)).toEqual(['Low Tide / Nimbus', 'Quiet Storm / Nimbus']);
    expect(found.slice(2)).toEqual(['Nimbus Dreams / Orbit Club', 'Ode to Nimbus / Glass Echo']);
  });

  it('still finds a song through a one-letter typo: a swap, a letter left out, one too many, one wrong', async () => {
    for (const typo of ['quiet strom', 'quiet stom', 'quiet stoorm', 'quiet stprm', 'qiuet storm', 'nimbsu'])
      expect(await titles(typo), typo).toContain('Quiet Storm / Nimbus');
    expect(await titles('zzzzzz')).toEqual([]);
  });

  it('reads the last word as a prefix, as typed', async () => {
    const typed = await titles('quiet sto');
    expect(typed).toContain('Quiet Storm / Nimbus');
    expect(typed).not.toContain('Storm Chaser / Velvet Lanterns');
    expect(await titles('velv')).toEqual(
      expect.arrayContaining(['Storm Chaser / Velvet Lanterns', 'Midnight Velvet / Neon Sunday', 'Velvet Morning / Neon Sunday']),
    );
    // A last word of one or two letters after another word: the songs the other words find, checked for it.
    expect((await titles('quiet s')).sort()).toEqual(['Quiet Storm / Nimbus', 'The Storm Inside / Quiet Harbour']);
    expect(await titles('nimbus q')).toEqual(['Quiet Storm / Nimbus']);
    expect(await titles('storm ch')).toEqual(['Storm Chaser / Velvet Lanterns']);
    // Words the parser keeps whole as well as in parts (a hyphen, a dot, an apostrophe).
    for (const typed of ['hip-hop', 'hip-ho', 'hip hop', "don't stop", 'crew.nine', 'crew.ni'])
      expect(await titles(typed), typed).toEqual(["Hip-Hop Don't Stop / Crew.Nine"]);
    // Album words count too, below names.
    expect(await titles('night city')).toEqual(['Velvet Morning / Neon Sunday']);
  });

  it('finds every word a prefix starts, whether the index is asked for the words (32 at most) or the prefix', async () => {
    // 40 known words starting "quill": more than are spelt out, so the index reads the prefix; "quillaa" alone starts 1.
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    for (let i = 0; i < 40; i += 1) await add(`Quill${letters[i % 26]}${letters[Math.floor(i / 26)]} Song`, 'Feather Ink', i);
    const all = await titles('quill', { limit: 50 });
    expect(all).toHaveLength(40);
    expect(all[0]).toBe('Quillnb Song / Feather Ink');
    expect(await titles('feather quill', { limit: 50 })).toEqual(all);
    expect(await titles('feather quillaa')).toEqual(['Quillaa Song / Feather Ink']);
    expect(await titles('song quillb', { limit: 50 })).toEqual(['Quillbb Song / Feather Ink', 'Quillba Song / Feather Ink']);
    await db.query(`delete from song where artist_name = 'Feather Ink'`);
  });

  it('finds the most played songs holding the words in the tiers of played songs, and the rest after them', async () => {
    // 45 songs in the top tier (more than the 40 candidates a first page takes), then 3 each in the hot and warm tiers and below.
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const plays = [...Array.from({ length: 45 }, (_, i) => 50_000 + i), ...[10_000, 10_001, 10_002, 1_000, 1_001, 1_002, 0, 1, 999]];
    for (const [i, p] of plays.entries()) await add(`Tidal ${letters[i % 26]}${letters[Math.floor(i / 26)]}`, 'Shore Line', p);
    const byPlays = plays
      .map((p, i) => ({ p, title: `Tidal ${letters[i % 26]}${letters[Math.floor(i / 26)]} / Shore Line` }))
      .sort((a, b) => b.p - a.p)
      .map((s) => s.title);
    expect(await titles('tidal')).toEqual(byPlays.slice(0, 20));
    const pages = [];
    for (const offset of [0, 20, 40]) pages.push(...(await titles('tidal', { offset })));
    expect(pages).toEqual(byPlays);
    // A word only two top, one hot and one warm song and two below hold: all of them, most played first.
    for (const [i, p] of [60_000, 55_000, 12_000, 2_000, 5, 0].entries()) await add(`Ebb ${letters[i]}`, 'Shore Line', p);
    expect(await titles('ebb')).toEqual(['Ebb a', 'Ebb b', 'Ebb c', 'Ebb d', 'Ebb e', 'Ebb f'].map((t) => `${t} / Shore Line`));
    await db.query(`delete from song where artist_name = 'Shore Line'`);
  });

  it('leaves explicit songs out when asked, and pages through the same order', async () => {
    expect(await titles('velvet', { includeExplicit: false })).not.toContain('Midnight Velvet / Neon Sunday');
    expect(await titles('velvet')).toContain('Midnight Velvet / Neon Sunday');
    const all = await titles('storm');
    expect(await titles('storm', { limit: 2, offset: 1 })).toEqual(all.slice(1, 3));
    expect(await titles('storm', { limit: 20, offset: SEARCH_WINDOW })).toEqual([]);
    expect(await titles('!!!')).toEqual([]);
  });

  it("counts a room's play of a catalogue song into its popularity, which ranks it higher", async () => {
    const before = await titles('storm');
    const { rows } = await db.query<{ song_id: string }>(`select song_id from song where track_name = 'Quiet Storm'`);
    const handle = roomEventsHandler(new PgSongPlayStore(orm));
    for (let i = 0; i < 600; i += 1) {
      const value = SongPlayed.encode(
        SongPlayed.fromPartial({
          metadata: newEventMetadata('room.song-played'),
          playId: randomUUID(),
          roomUuid: randomUUID(),
          roomSlug: 'r',
          djUuid: randomUUID(),
          song: { songId: rows[0]!.song_id, trackName: 'Quiet Storm', artistName: 'Nimbus', duration: 100 },
          startedAt: new Date(),
        }),
      ).finish();
      await handle({ eventType: 'room.song-played', value } as ReceivedEvent, orm.em.fork());
    }
    const { rows: after } = await db.query<{ popularity: number }>(`select popularity from song where track_name = 'Quiet Storm'`);
    expect(after[0]!.popularity).toBe(601);
    expect(before.indexOf('Quiet Storm / Nimbus')).toBe(4);
    // Above The Storm Inside (500), still below the exact title and the artist Storm.
    expect((await titles('storm')).indexOf('Quiet Storm / Nimbus')).toBe(3);
  });

  it('answers a song added or renamed from its cache for at most its time, then the change (SEARCH_CACHE_MS)', async () => {
    let clock = 0;
    const cached = new CachedSongSearch(search, { ttlMs: 5000, generationTtlMs: 0, maxEntries: 100, now: () => clock });
    const found = async (text: string) =>
      (await cached.search({ text, limit: 20, offset: 0, includeExplicit: true })).map((s) => `${s.trackName} / ${s.artistName}`);
    expect(await found('zephyrine')).toEqual([]);
    await add('Zephyrine', 'Cold Orchard', 5);
    clock = 4999;
    expect(await found('zephyrine')).toEqual([]);
    clock = 5000;
    expect(await found('zephyrine')).toEqual(['Zephyrine / Cold Orchard']);
    expect(await found('aureliane')).toEqual([]);
    await db.query(`update song set track_name = 'Aureliane' where track_name = 'Zephyrine'`);
    clock = 9999;
    expect(await found('zephyrine')).toEqual(['Zephyrine / Cold Orchard']);
    expect(await found('aureliane')).toEqual([]);
    clock = 10_000;
    expect(await found('zephyrine')).toEqual([]);
    // The new name's words are known at once, so its typos find it too.
    expect(await found('aurelaine')).toEqual(['Aureliane / Cold Orchard']);
    expect(await found('aureliane')).toEqual(['Aureliane / Cold Orchard']);
    await db.query(`delete from song where track_name = 'Aureliane'`);
  });

  it('advances the catalogue generation when a song is added, changed or removed, so a repeated search shows it', async () => {
    // A key of its own (the prefix): other processes on the same Redis advance the shared one.
    const redis = new Redis(testInfra().redisUrl, { keyPrefix: `test-${randomUUID()}:` });
    const changes = await advanceGenerationOnChanges(orm, redis, createLogger('test', { level: 'silent' }));
    const generation = async () => Number((await redis.get(CATALOGUE_GENERATION_KEY)) ?? 0);
    const advanced = async (after: number) => {
      while ((await generation()) <= after) await new Promise((r) => setTimeout(r, 20));
    };
    try {
      // Advanced when it started listening: changes made before were not heard.
      expect(await generation()).toBe(1);
      const cached = new CachedSongSearch(search, { ttlMs: 0, generationTtlMs: 3_600_000, maxEntries: 100 });
      const found = async (text: string) =>
        (await cached.search({ text, limit: 20, offset: 0, includeExplicit: true, generation: await generation() })).map(
          (s) => `${s.trackName} / ${s.artistName}`,
        );
      expect(await found('marigoldine')).toEqual([]);
      let g = await generation();
      await add('Marigoldine', 'Copper Vale', 5);
      await advanced(g);
      expect(await found('marigoldine')).toEqual(['Marigoldine / Copper Vale']);
      g = await generation();
      await db.query(`update song set track_name = 'Saffronelle' where track_name = 'Marigoldine'`);
      await advanced(g);
      expect(await found('marigoldine')).toEqual([]);
      expect(await found('saffronelle')).toEqual(['Saffronelle / Copper Vale']);
      g = await generation();
      await db.query(`delete from song where track_name = 'Saffronelle'`);
      await advanced(g);
      expect(await found('saffronelle')).toEqual([]);
    } finally {
      await changes.stop();
      redis.disconnect();
    }
  });

  it('notifies no catalogue change for a play (popularity) alone', async () => {
    const heard: string[] = [];
    db.on('notification', (n) => heard.push(n.payload ?? ''));
    await db.query('listen "song_catalogue"');
    await db.query(`update song set popularity = popularity + 1 where track_name = 'Low Tide'`);
    await db.query(`notify "song_catalogue", 'marker'`);
    await db.query(`update song set album_name = 'Shallows' where track_name = 'Low Tide'`);
    await db.query(`notify "song_catalogue", 'end'`);
    while (!heard.includes('end')) await new Promise((r) => setTimeout(r, 20));
    await db.query('unlisten "song_catalogue"');
    expect(heard).toEqual(['marker', '', 'end']);
    await db.query(`update song set album_name = '' where track_name = 'Low Tide'`);
  });

  it('leaves a song that is not playable out', async () => {
    await db.query(`update song set status = 'UNVERIFIED' where track_name = 'Low Tide'`);
    expect(await titles('nimbus')).not.toContain('Low Tide / Nimbus');
    await db.query(`update song set status = 'SUCCESS' where track_name = 'Low Tide'`);
  });
});
