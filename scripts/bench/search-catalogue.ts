// A bench catalogue for the search benchmark (scripts/bench/search.ts): songs
// generated with Zipf-like word frequencies (a few words in very many titles,
// a long tail of rare ones; a few artists with very many songs), loaded into
// the playlist service's schema with COPY, and a query mix drawn from the same
// vocabulary: common words, rare words, artist names, prefixes as typed and
// misspellings. Deterministic (one seed), so runs compare.
//
// Alone: node --import tsx scripts/bench/search-catalogue.ts <database> <songs>
// (on the dev profile's PostgreSQL) loads a catalogue and prints the times.
import { spawn } from 'node:child_process';
import pg from 'pg';
import { openServiceDatabase } from '@spinroom/platform';
import { playlistDatabase } from '../../services/playlist/src/db/database.js';
import { databaseUrl, readInfraEnv } from '../lib/infra.js';

/** Frequent words of song titles, most frequent first (the head of the Zipf curve). */
const COMMON = `love you me my the night heart baby time girl life world down way home light dream day fire
  back gone away rain blue sun dance tonight feel good man end soul song summer eyes free wild river
  forever again run last moon sky stars heaven little young city road lost burning sweet hold alone
  black golden angel shadow crazy ocean broken falling rise party kiss memories paradise wind storm
  highway gold silver window thunder morning sunday midnight echo velvet neon glass paper static orbit
  desert diamond electric fever ghost honey island jungle kingdom lonely magic mirror mountain
  nothing perfect purple queen rebel secret simple stranger sugar tears trouble whisky yellow`
  .split(/\s+/)
  .filter(Boolean);
const GENRES = ['pop', 'rock', 'hip hop', 'electronic', 'r&b', 'country', 'jazz', 'classical', 'latin', 'metal', 'folk', 'soul'];
const SYLLABLES = 'ka lo ri na te mo su vi da ze ul an or ei ba co fu ga hi jo ke mi no pe ra si to vu wa yo'.split(' ');

/** Sizes of the vocabularies: title words, artist-name words, artists. */
const TITLE_WORDS = 60_000;
const NAME_WORDS = 30_000;
const ARTISTS = 150_000;

/** mulberry32: a small seeded PRNG. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Draws ranks 0..n-1 with probability proportional to 1/(rank+1)^s. */
function zipf(n: number, s: number, random: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i += 1) {
    sum += 1 / (i + 1) ** s;
    cdf[i] = sum;
  }
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Words made of syllables, unique, after the real ones. */
function vocabulary(head: string[], size: number, random: () => number): string[] {
  const words = new Set(head);
  while (words.size < size) {
    const n = 2 + Math.floor(random() * 3);
    words.add(Array.from({ length: n }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(''));
  }
  return [...words];
}

export interface BenchCatalogue {
  titleWords: string[];
  artists: string[];
  /** Rows in COPY text format, `size` of them. */
  rows(): Generator<string>;
}

/** Changed with the generator, so a kept catalogue made by another is loaded again. */
const GENERATOR_VERSION = 2;

export const COPY_COLUMNS = [
  'song_id',
  'song_short_id',
  'track_name',
  'artist_name',
  'duration',
  'explicit',
  'genre',
  'album_name',
  'music_providers',
  'status',
  'popularity',
  'created_at',
  'updated_at',
];

export function benchCatalogue(size: number, seed = 21): BenchCatalogue {
  const random = prng(seed);
  const titleWords = vocabulary(COMMON, TITLE_WORDS, random);
  const nameWords = vocabulary(['the', 'band', 'boys', 'brothers', 'project', 'club', 'dj', 'mc', 'lil', 'orchestra'], NAME_WORDS, random);
  const nameWord = zipf(nameWords.length, 0.8, random);
  const artists = [
    ...new Set(
      Array.from({ length: ARTISTS }, () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => nameWords[nameWord()]).join(' ')),
    ),
  ];
  return {
    titleWords,
    artists,
    *rows() {
      const r = prng(seed + 1);
      const titleWord = zipf(titleWords.length, 1.05, r);
      const artist = zipf(artists.length, 0.7, r);
      const genre = zipf(GENRES.length, 1, r);
      const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
      const created = new Date('2026-01-01T00:00:00Z').toISOString();
      for (let i = 0; i < size; i += 1) {
        const words = 1 + Math.min(5, Math.floor(-Math.log(1 - r()) * 1.6));
        const title = Array.from({ length: words }, () => capital(titleWords[titleWord()]!)).join(' ');
        const a = artist();
        const album = `${capital(titleWords[titleWord()]!)} ${capital(titleWords[titleWord()]!)}`;
        // Popularity: heavy-tailed, higher for the more-played artists.
        const popularity = Math.floor((1_000_000 / (a + 10) ** 0.7) * r() ** 4);
        const hex = i.toString(16).padStart(12, '0');
        yield [
          `00000000-0000-4000-8000-${hex}`,
          `b${i.toString(36)}`,
          title,
          artists[a]!.split(' ').map(capital).join(' '),
          String(120 + Math.floor(r() * 240)),
          r() < 0.08 ? 't' : 'f',
          GENRES[genre()]!,
          album,
          `{"spotify":"bench-${i}"}`,
          'SUCCESS',
          String(popularity),
          created,
          created,
        ].join('\t');
      }
    },
  };
}

/** One edit away: a swap of two letters, a letter left out or a letter doubled, in turn. */
function misspell(word: string, n: number): string {
  const i = 1 + (n % Math.max(1, word.length - 2));
  if (n % 3 === 0 && word.length > 3) return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  if (n % 3 === 1) return word.slice(0, i) + word.slice(i + 1);
  return word.slice(0, i) + word[i] + word.slice(i);
}

/** The query mix, by kind: what people type into the search box (the web client asks 300 ms after the last key). */
export function benchQueries(catalogue: BenchCatalogue, seed = 7): Record<string, string[]> {
  const r = prng(seed);
  const words = catalogue.titleWords;
  const pick = <T>(list: T[], from: number, to: number) => list[from + Math.floor(r() * (Math.min(to, list.length) - from))]!;
  const common = Array.from({ length: 30 }, (_, i) => (i < 20 ? words[i]! : `${pick(words, 0, 50)} ${pick(words, 0, 50)}`));
  const rare = Array.from({ length: 30 }, () => pick(words, 5_000, words.length));
  const artists = Array.from({ length: 30 }, (_, i) => (i < 10 ? catalogue.artists[i]! : pick(catalogue.artists, 10, 20_000)));
  const prefixes = Array.from({ length: 10 }, () => `${pick(words, 0, 500)} ${pick(words, 0, 2_000)}`).flatMap((phrase) =>
    [3, 5, 8, phrase.length].map((n) => phrase.slice(0, n).trim()),
  );
  const misspelt = Array.from({ length: 30 }, (_, i) =>
    i % 2 === 0 ? misspell(pick(words, 0, 300), i) : `${pick(words, 0, 100)} ${misspell(pick(words, 100, 3_000), i)}`,
  );
  return { common, rare, artists, prefixes, misspelt };
}

/** One request of the traffic: the words and the page (offset 0, or 20 for the next page). */
export interface SearchRequest {
  q: string;
  offset: number;
}

/**
 * Search traffic as a search box sees it, for the throughput runs: a stream,
 * not a list walked round. Each search someone makes is, by the knobs below:
 * - from a pool of 40,000 distinct popular queries (artist names in their
 *   popularity order, titles of the most played songs, title words, pairs of
 *   common words), drawn with Zipf frequencies (s = 1): the head repeats, the
 *   pool's tail rarely;
 * - or (`tail`, 25%) a query no one asked before: a title of rarer words, a rare
 *   word and a common one, a phrase of a random song's words, or a word no song
 *   holds; never repeated;
 * - misspelt (`typo`, 8% of the pool's draws): one word one edit away, at a
 *   random place, so mostly new too;
 * - typed: the web client searches 300 ms after the last key, so before the
 *   whole query come the prefixes its typist paused at (one with
 *   probability 0.4, a second with 0.15; at least 3 letters);
 * - and sometimes (5%) followed by its next page (offset 20).
 * The parameters are the bench's, not measured from real traffic: they follow
 * the shape search logs are known for (a Zipf head, a long tail of queries
 * seen once, prefixes and typos), and say how much of it a cache can serve.
 */
export function searchTraffic(
  catalogue: BenchCatalogue,
  options: { seed?: number; pool?: number; tail?: number; typo?: number; prefix?: number; prefix2?: number; nextPage?: number } = {},
): () => SearchRequest {
  const { seed = 11, pool: poolSize = 40_000, tail = 0.25, typo = 0.08, prefix = 0.4, prefix2 = 0.15, nextPage = 0.05 } = options;
  const r = prng(seed);
  const words = catalogue.titleWords;
  // The most played songs' titles: the first 60,000 rows of the catalogue, by popularity.
  const songs: { title: string; popularity: number }[] = [];
  for (const row of catalogue.rows()) {
    const cols = row.split('\t');
    songs.push({ title: cols[2]!.toLowerCase(), popularity: Number(cols[10]) });
    if (songs.length === 60_000) break;
  }
  songs.sort((a, b) => b.popularity - a.popularity);
  const titleWord = zipf(words.length, 1.05, r);
  const sources: { weight: number; items: string[] }[] = [
    { weight: 0.4, items: catalogue.artists.map((a) => a.toLowerCase()) },
    { weight: 0.35, items: [...new Set(songs.map((s) => s.title))] },
    { weight: 0.17, items: words },
    { weight: 0.08, items: Array.from({ length: 20_000 }, () => `${words[titleWord() % 300]} ${words[titleWord() % 2_000]}`) },
  ];
  const pool: string[] = [];
  const seen = new Set<string>();
  const taken = sources.map(() => 0);
  while (pool.length < poolSize) {
    let x = r();
    let i = 0;
    while (i < sources.length - 1 && x >= sources[i]!.weight) x -= sources[i++]!.weight;
    const item = sources[i]!.items[taken[i]!++];
    if (item !== undefined && !seen.has(item)) {
      seen.add(item);
      pool.push(item);
    }
  }
  const rank = zipf(pool.length, 1, r);
  const syllables = () => Array.from({ length: 3 + Math.floor(r() * 2) }, () => SYLLABLES[Math.floor(r() * SYLLABLES.length)]).join('');
  const rare = () => words[500 + Math.floor(r() * (words.length - 500))]!;
  const unique = (): string => {
    for (;;) {
      const kind = r();
      const q =
        kind < 0.3
          ? Array.from({ length: 2 + Math.floor(r() * 3) }, () => words[titleWord()]!).join(' ')
          : kind < 0.6
            ? `${rare()} ${words[titleWord() % 500]}`
            : kind < 0.85
              ? `${rare()} ${rare()}`
              : kind < 0.95
                ? syllables() + syllables()
                : misspell(rare(), Math.floor(r() * 1000));
      if (!seen.has(q)) {
        seen.add(q);
        return q;
      }
    }
  };
  const queue: SearchRequest[] = [];
  const prefixOf = (q: string) => q.slice(0, 3 + Math.floor(r() * (q.length - 3))).trimEnd();
  return () => {
    if (queue.length === 0) {
      let q: string;
      let fromPool = false;
      if (r() < tail) q = unique();
      else {
        q = pool[rank()]!;
        fromPool = true;
        if (r() < typo) {
          const parts = q.split(' ');
          const at = Math.floor(r() * parts.length);
          parts[at] = misspell(parts[at]!, Math.floor(r() * 1000));
          q = parts.join(' ');
        }
      }
      if (q.length > 4 && r() < prefix) {
        const first = prefixOf(q);
        if (r() < prefix2 / prefix && first.length > 4) queue.push({ q: prefixOf(first), offset: 0 });
        queue.push({ q: first, offset: 0 });
      }
      queue.push({ q, offset: 0 });
      if (fromPool && r() < nextPage) queue.push({ q, offset: 20 });
    }
    return queue.shift()!;
  };
}

export interface LoadReport {
  songs: number;
  loaded: boolean;
  copySeconds: number;
  indexSeconds: number;
  wordsSeconds: number;
  vacuumSeconds: number;
  totalSeconds: number;
  tableBytes: number;
  indexBytes: Record<string, number>;
}

/**
 * Migrates the database (the playlist service's own migrations), then, unless
 * it already holds exactly `size` songs, empties it and loads the catalogue:
 * the song table's secondary indexes dropped, COPY (psql), the indexes built
 * again from their own definitions, the word tables filled in one statement
 * each (the trigger that learns words off meanwhile), VACUUM ANALYZE.
 */
export async function loadCatalogue(url: string, catalogue: BenchCatalogue, size: number): Promise<LoadReport> {
  const orm = await openServiceDatabase('playlist', url, playlistDatabase);
  await orm.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const seconds = (since: number) => (performance.now() - since) / 1000;
  const started = performance.now();
  const report: LoadReport = {
    songs: size,
    loaded: false,
    copySeconds: 0,
    indexSeconds: 0,
    wordsSeconds: 0,
    vacuumSeconds: 0,
    totalSeconds: 0,
    tableBytes: 0,
    indexBytes: {},
  };
  try {
    const marker = `bench catalogue: ${size} songs, generator ${GENERATOR_VERSION}`;
    const { rows } = await client.query<{ n: string; marker: string | null }>(
      `select count(*) as n, obj_description('song'::regclass, 'pg_class') as marker from song`,
    );
    if (Number(rows[0]!.n) !== size || rows[0]!.marker !== marker) {
      report.loaded = true;
      await client.query('truncate song, song_word, song_word_variant cascade');
      const indexes = await client.query<{ name: string; def: string }>(
        `select indexname as name, indexdef as def from pg_indexes where tablename = 'song'
         and indexname not in (select conname from pg_constraint where conrelid = 'song'::regclass)`,
      );
      for (const index of indexes.rows) await client.query(`drop index "${index.name}"`);
      await client.query('alter table song disable trigger song_words_learn');
      let t = performance.now();
      await copyIn(url, `copy song (${COPY_COLUMNS.join(', ')}) from stdin`, catalogue.rows());
      report.copySeconds = seconds(t);
      t = performance.now();
      await client.query(`set maintenance_work_mem = '512MB'`);
      await Promise.all(
        indexes.rows.map(async (index) => {
          const c = new pg.Client({ connectionString: url });
          await c.connect();
          await c.query(`set maintenance_work_mem = '256MB'`);
          await c.query(index.def);
          await c.end();
        }),
      );
      report.indexSeconds = seconds(t);
      t = performance.now();
      await client.query(`insert into song_word (word)
        select distinct w from song, unnest(tsvector_to_array(search_vector)) w where length(w) <= 64`);
      await client.query(`insert into song_word_variant (variant, word)
        select distinct v, w.word from song_word w
          cross join lateral (
            select w.word as v union select left(w.word, i - 1) || substr(w.word, i + 1) from generate_series(1, length(w.word)) i) d
        where length(w.word) >= 3`);
      await client.query('alter table song enable trigger song_words_learn');
      report.wordsSeconds = seconds(t);
      t = performance.now();
      await client.query('vacuum analyze song, song_word, song_word_variant');
      report.vacuumSeconds = seconds(t);
      await client.query(`comment on table song is '${marker}'`);
    }
    report.totalSeconds = seconds(started);
    const sizes = await client.query<{ name: string; bytes: string }>(
      `select relname as name, pg_relation_size(oid) as bytes from pg_class
       where relname = 'song' or oid in (select indexrelid from pg_index where indrelid in ('song'::regclass, 'song_word'::regclass, 'song_word_variant'::regclass))
          or relname in ('song_word', 'song_word_variant')`,
    );
    for (const row of sizes.rows) {
      if (row.name === 'song') report.tableBytes = Number(row.bytes);
      else report.indexBytes[row.name] = Number(row.bytes);
    }
  } finally {
    await client.end();
  }
  return report;
}

/** COPY ... FROM STDIN through psql, fed from a generator of rows. */
async function copyIn(url: string, sql: string, rows: Iterable<string>): Promise<void> {
  const psql = spawn('psql', ['-v', 'ON_ERROR_STOP=1', '-q', '-c', sql, url], { stdio: ['pipe', 'inherit', 'inherit'] });
  const done = new Promise<void>((resolve, reject) => {
    psql.once('error', reject);
    psql.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql COPY exited with ${code}`))));
  });
  let chunk: string[] = [];
  for (const row of rows) {
    chunk.push(row);
    if (chunk.length === 5_000) {
      if (!psql.stdin.write(`${chunk.join('\n')}\n`)) await new Promise((resolve) => psql.stdin.once('drain', resolve));
      chunk = [];
    }
  }
  if (chunk.length > 0) psql.stdin.write(`${chunk.join('\n')}\n`);
  psql.stdin.end();
  await done;
}

if (process.argv[1]?.endsWith('search-catalogue.ts')) {
  const [database = 'spinroom_playlist_bench_search', size = '1000000'] = process.argv.slice(2);
  const url = databaseUrl(readInfraEnv('dev'), database);
  const catalogue = benchCatalogue(Number(size));
  console.log(JSON.stringify(await loadCatalogue(url, catalogue, Number(size)), null, 2));
  console.log(JSON.stringify(benchQueries(catalogue), null, 2));
}
