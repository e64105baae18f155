import type { MikroORM } from '@mikro-orm/postgresql';
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
import { SongEntity } from './entities.js';

/** Candidates each source hands out at most, best first, before the re-ranking (deeper pages take more). */
const MIN_CANDIDATES = 40;
/** How far down the popularity index a word is looked for before its own (GIN) index is asked. */
const POPULAR_WALK = 3000;

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
 *    words' GIN index (their songs are few).
 * 4. Ranked: exact title, then the artist's own songs, then `ts_rank` (names
 *    weigh most, then album, then genre), then popularity.
 *
 * Two statements a search (three with a typo): the words of step 1 (and 2),
 * then steps 3 and 4 and the page's rows in one, each source of candidates
 * behind a one-time filter on what the ones before it found.
 */
export class PgSongSearch implements SongSearch {
  private common: { at: number; freq: Map<string, number> } | undefined;
  private songColumns: string | undefined;

  constructor(private readonly orm: MikroORM) {}

  async search(query: SongSearchQuery): Promise<Song[]> {
    const wanted = query.offset + query.limit;
    if (wanted > SEARCH_WINDOW) return [];
    const em = this.orm.em.fork();
    const text = query.text.trim().toLowerCase();
    const k = Math.max(MIN_CANDIDATES, wanted * 2);
    const terms = await this.terms(text);
    const tsQuery = terms.length > 0 ? toTsQuery(terms) : null;
    // The walk pays only for words common enough to be found in it (the planner's statistics say which).
    const walk = tsQuery !== null && (await this.share(terms)) * POPULAR_WALK >= k;

    // One statement for the candidates, their ranking and the page's rows. Each source runs only
    // while the ones before it leave the page short (one-time filters on their counts): the exact
    // title and artist; the walk down the popularity index; the words' GIN index.
    const playable = `"status" <> 'UNVERIFIED' and (? or not "explicit")`;
    const ctes = [
      {
        name: 'exact',
        sql: `"exact" as materialized (
          (select "id" from "song" where lower("track_name") = ? and ${playable} order by "popularity" desc limit ?)
          union
          (select "id" from "song" where lower("artist_name") = ? and ${playable} order by "popularity" desc limit ?))`,
        params: [text, query.includeExplicit, k, text, query.includeExplicit, k],
      },
    ];
    if (tsQuery && walk) {
      ctes.push({
        name: 'walk',
        sql: `"walk" as materialized (
          select "id" from (select "id", "search_vector", "explicit", "status" from "song" order by "popularity" desc, "id" limit ?) t
           where (select count(*) from "exact") < ? and "search_vector" @@ to_tsquery('simple', ?) and ${playable} limit ?)`,
        params: [POPULAR_WALK, wanted, tsQuery, query.includeExplicit, k],
      });
    }
    if (tsQuery) {
      ctes.push({
        name: 'words',
        sql: `"words" as materialized (
          select "id" from "song"
           where (select count(*) from "exact") < ?${walk ? ` and (select count(*) from "walk") < ?` : ''}
             and "search_vector" @@ to_tsquery('simple', ?) and ${playable}
           order by "popularity" desc, "id" limit ?)`,
        params: [wanted, ...(walk ? [k] : []), tsQuery, query.includeExplicit, k],
      });
    }
    // The words' rank counts only when the words were asked (the exact matches left the page short).
    const rank = tsQuery
      ? `(case when (select count(*) from "exact") < ? then ts_rank("search_vector", to_tsquery('simple', ?)) else 0 end) desc, `
      : '';
    const rows = await em.execute<Array<Record<string, unknown>>>(
      `with ${ctes.map((c) => c.sql).join(', ')}
       select ${this.columns()} from "song"
        where "id" in (${ctes.map((c) => `select "id" from "${c.name}"`).join(' union ')})
        order by (lower("track_name") = ?) desc, (lower("artist_name") = ?) desc, ${rank}"popularity" desc, "id"
        limit ? offset ?`,
      [...ctes.flatMap((c) => c.params), text, text, ...(tsQuery ? [wanted, tsQuery] : []), query.limit, query.offset],
    );
    return rows.map((row) => em.map(SongEntity, row));
  }

  /** The song's own columns (what its entity maps), without the search's. */
  private columns(): string {
    this.songColumns ??= this.orm
      .getMetadata()
      .get(SongEntity)
      .props.flatMap((prop) => prop.fieldNames ?? [])
      .map((name) => `"${name}"`)
      .join(', ');
    return this.songColumns;
  }

  /**
   * The share of songs that hold the query's rarest term at most (a term's
   * alternatives and, for a prefix, the words it starts added up), from the
   * statistics ANALYZE keeps on `search_vector`: its most common lexemes and
   * their frequencies, read again each minute. A term not among them is rare.
   */
  private async share(terms: QueryTerm[]): Promise<number> {
    if (!this.common || Date.now() - this.common.at > 60_000) {
      const [stats] = await this.orm.em.fork().execute<{ elems: string[] | null; freqs: number[] | null }[]>(
        `select most_common_elems::text::text[] as "elems", most_common_elem_freqs as "freqs" from pg_stats
           where schemaname = current_schema() and tablename = 'song' and attname = 'search_vector'`,
      );
      const elems = stats?.elems ?? [];
      this.common = { at: Date.now(), freq: new Map(elems.map((e, i) => [e, Number(stats?.freqs?.[i] ?? 0)])) };
    }
    const freq = this.common.freq;
    const termShare = (term: QueryTerm) =>
      term.alternatives.reduce((sum, alt) => {
        if (!term.prefix) return sum + (freq.get(alt) ?? 0);
        let share = 0;
        for (const [lexeme, f] of freq) if (lexeme.startsWith(alt)) share += f;
        return sum + share;
      }, 0);
    return Math.min(...terms.map(termShare));
  }

  /** The query's words, each itself when known (the last as a prefix of a known word), else its corrections. */
  private async terms(text: string): Promise<QueryTerm[]> {
    const em = this.orm.em.fork();
    const words = await em.execute<{ word: string; known: boolean; prefix_known: boolean }[]>(
      `select t."lexeme" as "word",
         exists (select 1 from "song_word" w where w."word" = t."lexeme" collate "C") as "known",
         exists (select 1 from "song_word" w
                 where w."word" >= t."lexeme" collate "C" and w."word" < (t."lexeme" || chr(1114111)) collate "C") as "prefix_known"
       from unnest(to_tsvector('simple', ?)) t order by t."positions"[1]`,
      [text],
    );
    const unknown = words.filter((w, i) => !(i === words.length - 1 ? w.prefix_known : w.known) && typoBudget(w.word) > 0);
    const near = new Map<string, string[]>();
    if (unknown.length > 0) {
      const variants = [...new Set(unknown.flatMap((w) => [w.word, ...deletions(w.word)]))];
      const found = await em.execute<{ word: string }[]>(`select distinct "word" from "song_word_variant" where "variant" in (?)`, [
        variants,
      ]);
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
      return { alternatives: alternatives && alternatives.length > 0 ? alternatives : [w.word], prefix: i === words.length - 1 };
    });
  }
}
