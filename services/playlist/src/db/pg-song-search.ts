import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { Song } from '../domain/song.js';
import {
  corrections,
  deletions,
  SEARCH_WINDOW,
  toTsQuery,
  typoBudget,
  type QueryTerm,
  type SongSearch,
  type SongSearchQuery,
} from '../domain/song-search.js';

/** Candidates each source hands out at most, best first, before the re-ranking (deeper pages take more). */
const MIN_CANDIDATES = 40;
/**
 * How far down the popularity index the words are looked for (the walk), and
 * how common the statistics must expect them to be for the walk to be tried:
 * common enough to find twice the candidates within it (words in 1.6% of the
 * songs). The walk stops at the candidates' count, so a common word reads a
 * few hundred entries; words expected rarer go to their GIN indexes. A walk
 * reads the covering index in popularity order (about half a microsecond an
 * entry); the GIN path reads each matching song's row to sort them by
 * popularity (5 µs and more each), but a tier's (TIERS) only the most played
 * songs': below that share the tiers read less than the walk would (a walk of
 * 20,000 tried for words the statistics thought common read all of it, 7-11 ms,
 * where the tiers read a few hundred rows).
 */
const WALK = 5_000;
/** Connections of the search's own pool: PostgreSQL runs a search on one core, and the machine has few. */
const POOL_MAX = 6;
/**
 * The search pool's sessions: plans made once per statement and connection
 * (the statements' shapes are written so that one plan fits every query of a
 * shape), and no parallel workers (launching them costs more than a search).
 */
const SESSION_OPTIONS = '-c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0';
/**
 * A typed prefix that starts at most this many known words is looked up in the GIN index as those words: the index reads
 * the posting lists of exact words in step with the other words' (skipping), a prefix's in full, and a prefix of a common
 * word ("lov", "the") made the index read that word's whole list.
 */
const SPELT_OUT = 32;
/**
 * A last prefix that starts more words than that, and that the statistics expect in at least this share of the songs,
 * is left out of the GIN lookup beside other words (as a short one is) and checked on the songs they find.
 */
const COMMON_PREFIX = 0.02;
/** A typed prefix shorter than this is not looked up in the GIN index beside other words (it matches too many words there); the songs the other words find are checked for it. */
const INDEX_PREFIX = 3;

/**
 * Tiers of the most played songs, most played first, each with a partial GIN index on its songs' words (migration
 * Migration20261210000000_search_tiers, the same predicates). Words that thousands of songs hold, but not enough for
 * the walk, find their k best among a tier's few thousand rows instead of every match's; the plays are where the
 * bench catalogue's top 6% and 19% begin (any values answer the same songs, only the rows read differ).
 */
const TIERS = [
  { name: 'top', plays: 50_000 },
  { name: 'hot', plays: 10_000 },
  { name: 'warm', plays: 1_000 },
];

/** The page's columns, named as `Song`'s fields: the rows are the answer, no entity mapping. */
const SONG_COLUMNS = `"id", "song_id" as "songId", "song_short_id" as "songShortId", "isrc", "track_name" as "trackName",
  "artist_name" as "artistName", "duration", "explicit", "genre", "release_year" as "releaseYear", "album_name" as "albumName",
  "music_providers" as "musicProviders", "thumbnails", "links", "previews", "stream_urls" as "streamUrls", "status",
  "playback_token" as "playbackToken"`;

/**
 * The query's words: each as the 'simple' parser reads it, whether a song holds it, and (for the last, read as a typed
 * prefix) the known words it starts, up to one more than a prefix is spelt out for (none: no song holds a word it starts).
 */
const WORDS_SQL = `select t."lexeme" as "word",
   exists (select 1 from "song_word" w where w."word" = t."lexeme" collate "C") as "known",
   array(select w."word" from "song_word" w
          where w."word" >= t."lexeme" collate "C" and w."word" < (t."lexeme" || chr(1114111)) collate "C"
          order by w."word" collate "C" limit ${SPELT_OUT + 1}) as "starts"
 from unnest(to_tsvector('simple', $1)) t order by t."positions"[1]`;

const VARIANTS_SQL = `select distinct "word" from "song_word_variant" where "variant" = any($1::text[])`;

/**
 * The candidates-and-page statement, one per shape (words asked or not, the
 * walk or not). Parameters: $1 the text, $2 explicit songs included, $3 the
 * candidates per source (k), $4 limit, $5 offset; with words, $6 offset +
 * limit, $7 the words' tsquery for the GIN index and $8 the whole tsquery
 * (they differ when a short typed prefix is left out of the index's), sent
 * as tsquery values (the lexemes are the parser's already): a generic plan
 * would call to_tsquery() again for every row the walk or the GIN recheck
 * reads, which cost more than the rest of the walk.
 */
function pageSql(words: boolean, walk: boolean): string {
  const playable = `"status" <> 'UNVERIFIED' and ($2 or not "explicit")`;
  const ctes = [
    `"exact" as materialized (
      (select "id" from "song" where lower("track_name") = $1 and ${playable} order by "popularity" desc limit $3)
      union
      (select "id" from "song" where lower("artist_name") = $1 and ${playable} order by "popularity" desc limit $3))`,
  ];
  const names = ['exact'];
  if (words && walk) {
    ctes.push(`"walk" as materialized (
      select "id" from (select "id", "search_vector", "explicit", "status" from "song" order by "popularity" desc, "id" limit ${WALK}) t
       where (select count(*) from "exact") < $6 and "search_vector" @@ $8::tsquery and ${playable} limit $3)`);
    names.push('walk');
  }
  if (words) {
    // The GIN index finds the songs holding the words ($7); ts_match_vq (not the operator, so the planner cannot take it
    // to the index) checks the whole query ($8) on them. "popularity" + 0: the order the popularity index cannot give, so
    // a plan made once for any words (the statement is prepared) still reads the words' index, never a walk of the catalogue.
    // First among the most played songs only (the tiers' partial indexes), then among all: a tier that holds k songs with
    // the words holds the k best, so the whole index, whose matches are each a row read, is read only for words few songs hold.
    const before = walk ? ['walk'] : [];
    for (const [name, index] of [...TIERS.map((t) => [t.name, `"popularity" + 0 >= ${t.plays}`] as const), ['words', 'true'] as const]) {
      ctes.push(`"${name}" as materialized (
      select "id" from "song"
       where (select count(*) from "exact") < $6${before.map((b) => ` and (select count(*) from "${b}") < $3`).join('')}
         and ${index} and "search_vector" @@ $7::tsquery and ts_match_vq("search_vector", $8::tsquery) and ${playable}
       order by "popularity" + 0 desc, "id" limit $3)`);
      before.push(name);
      names.push(name);
    }
  }
  // The words' rank counts only when the words were asked (the exact matches left the page short).
  const rank = words ? `(case when (select count(*) from "exact") < $6 then ts_rank("search_vector", $8::tsquery) else 0 end) desc, ` : '';
  return `with ${ctes.join(', ')}
    select ${SONG_COLUMNS} from "song"
     where "id" in (${names.map((n) => `select "id" from "${n}"`).join(' union ')})
     order by (lower("track_name") = $1) desc, (lower("artist_name") = $1) desc, ${rank}"popularity" desc, "id"
     limit $4 offset $5`;
}

const PAGE_STATEMENTS = {
  exact: { name: 'song_search_exact', text: pageSql(false, false) },
  words: { name: 'song_search_words', text: pageSql(true, false) },
  walk: { name: 'song_search_walk', text: pageSql(true, true) },
};

/**
 * The catalogue search on PostgreSQL, the embedded default. Its cost follows
 * the page asked for, not the catalogue: each source of candidates is an index
 * read in ranked order that stops at a bound, and only that bounded set is
 * re-ranked.
 *
 * 1. The query's words as PostgreSQL's 'simple' parser reads them (as the
 *    songs' `search_vector` was made), each looked up among the known words
 *    (`song_word`; the last one as a prefix, as typed).
 * 2. A word no song holds (at least 3 letters) becomes the known words one
 *    edit away: its one-letter deletions and itself looked up in
 *    `song_word_variant` (an index probe per letter), then checked exactly.
 * 3. Candidates: songs titled exactly the query, and songs by the artist
 *    named exactly the query (btree indexes in popularity order); when they
 *    fill the page, nothing else can rank into it. Else the songs holding
 *    every word, most played first: for words the statistics call common,
 *    the first entries of the covering popularity index (found there, no
 *    table read); for the others, or when those entries hold too few, the
 *    words' GIN indexes: first those of the tiers of the most played songs
 *    (partial indexes), then all songs', each read only when the one before
 *    held fewer than the candidates asked (a tier holding them holds the
 *    best); a last typed prefix of one or two letters checked on the songs the
 *    other words find.
 * 4. Ranked: exact title, then the artist's own songs, then `ts_rank` (names
 *    weigh most, then album, then genre), then popularity.
 *
 * Two statements a search (three with a typo): the words of step 1 (and 2),
 * then steps 3 and 4 and the page's rows in one, each source of candidates
 * behind a one-time filter on what the ones before it found. Each is a named
 * prepared statement with parameters (of three shapes), on a small pool of the
 * search's own whose sessions keep generic plans: PostgreSQL parses and plans
 * each once per connection, not once per search, and the rows come back as
 * `Song`s. `close()` ends that pool.
 */
export class PgSongSearch implements SongSearch {
  private common: { at: number; freq: Map<string, number>; lexemes: string[]; sums: number[] } | undefined;
  private pool: pg.Pool | undefined;

  constructor(private readonly orm: MikroORM) {}

  private connections(): pg.Pool {
    if (!this.pool) {
      // The ORM's own address (with its TLS and other URL settings) when it has one, else what it connected with.
      const url = this.orm.config.get('clientUrl');
      const { host, port, user, password, database } = this.orm.em.getConnection().getConnectionOptions();
      this.pool = new pg.Pool({
        ...(url ? { connectionString: url } : { host, port, user, password, database }),
        max: POOL_MAX,
        idleTimeoutMillis: 30_000,
        allowExitOnIdle: true,
        options: SESSION_OPTIONS,
      });
      // An idle connection the server dropped: the pool discards it; the next search opens another.
      this.pool.on('error', () => {});
    }
    return this.pool;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.end();
  }

  async search(query: SongSearchQuery): Promise<Song[]> {
    const wanted = query.offset + query.limit;
    if (wanted > SEARCH_WINDOW) return [];
    const text = query.text.trim().toLowerCase();
    const k = Math.max(MIN_CANDIDATES, wanted * 2);
    const terms = await this.terms(text);
    const values: unknown[] = [text, query.includeExplicit, k, query.limit, query.offset];
    let statement = PAGE_STATEMENTS.exact;
    if (terms.length > 0) {
      const share = await this.statistics();
      // The GIN index's query: the last prefix spelt out as its words when few, left out when short or common (and other words are asked).
      const indexed = terms.flatMap((t) => {
        if (t.words) return [{ alternatives: t.words, prefix: false }];
        const leftOut = t.prefix && (t.alternatives.some((a) => Array.from(a).length < INDEX_PREFIX) || share(t) >= COMMON_PREFIX);
        return leftOut && terms.length > 1 ? [] : [t];
      });
      values.push(wanted, toTsQuery(indexed.length > 0 ? indexed : terms), toTsQuery(terms));
      // The walk pays only for words common enough to be found in it (the planner's statistics say which).
      statement =
        terms.reduce((all, term) => all * Math.min(1, share(term)), 1) * WALK >= 2 * k ? PAGE_STATEMENTS.walk : PAGE_STATEMENTS.words;
    }
    const { rows } = await this.connections().query<Song>({ ...statement, values });
    return rows;
  }

  /**
   * The share of songs expected to hold a term (a term's alternatives and,
   * for a prefix, the words it starts added up), from the statistics ANALYZE
   * keeps on `search_vector`: its most common lexemes and their frequencies,
   * read again each minute. A term not among them is rare.
   */
  private async statistics(): Promise<(term: QueryTerm) => number> {
    if (!this.common || Date.now() - this.common.at > 60_000) {
      const { rows } = await this.connections().query<{ elems: string[] | null; freqs: number[] | null }>(
        `select most_common_elems::text::text[] as "elems", most_common_elem_freqs as "freqs" from pg_stats
           where schemaname = current_schema() and tablename = 'song' and attname = 'search_vector'`,
      );
      const stats = rows[0];
      // Sorted (code point order, as a prefix's words are contiguous), with running sums: a prefix's share is two searches.
      const pairs = (stats?.elems ?? [])
        .map((e, i) => [e, Number(stats?.freqs?.[i] ?? 0)] as const)
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      const sums = [0];
      for (const [, f] of pairs) sums.push(sums.at(-1)! + f);
      this.common = { at: Date.now(), freq: new Map(pairs), lexemes: pairs.map(([e]) => e), sums };
    }
    const { freq, lexemes, sums } = this.common;
    const firstAtLeast = (word: string) => {
      let lo = 0;
      let hi = lexemes.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (lexemes[mid]! < word) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    return (term: QueryTerm) =>
      term.alternatives.reduce((sum, alt) => {
        if (!term.prefix) return sum + (freq.get(alt) ?? 0);
        return sum + sums[firstAtLeast(`${alt}\u{10ffff}`)]! - sums[firstAtLeast(alt)]!;
      }, 0);
  }

  /** The query's words, each itself when known (the last as a prefix of a known word), else its corrections. */
  private async terms(text: string): Promise<QueryTerm[]> {
    const pool = this.connections();
    const { rows: words } = await pool.query<{ word: string; known: boolean; starts: string[] }>({
      name: 'song_search_terms',
      text: WORDS_SQL,
      values: [text],
    });
    const last = words.length - 1;
    const unknown = words.filter((w, i) => !(i === last ? w.starts.length > 0 : w.known) && typoBudget(w.word) > 0);
    const near = new Map<string, string[]>();
    if (unknown.length > 0) {
      const variants = [...new Set(unknown.flatMap((w) => [w.word, ...deletions(w.word)]))];
      const { rows: found } = await pool.query<{ word: string }>({ name: 'song_search_variants', text: VARIANTS_SQL, values: [variants] });
      for (const w of unknown) {
        near.set(
          w.word,
          corrections(
            w.word,
            found.map((f) => f.word),
          ),
        );
      }
    }
    return words.map((w, i) => {
      const alternatives = near.get(w.word);
      if (alternatives && alternatives.length > 0) return { alternatives, prefix: i === last };
      const spelt = i === last && w.starts.length > 0 && w.starts.length <= SPELT_OUT;
      return { alternatives: [w.word], prefix: i === last, ...(spelt ? { words: w.starts } : {}) };
    });
  }
}
