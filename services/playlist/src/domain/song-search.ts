import { searchKeyText } from '@spinroom/contracts/songs';
import type { Song } from './song.js';

/** A catalogue search as the service asks it (spec 002: q, explicit, offset, limit). */
export interface SongSearchQuery {
  text: string;
  limit: number;
  offset: number;
  includeExplicit: boolean;
  /** The catalogue's generation the caller read before asking (0 or none: unknown); answers are reused only within one. */
  generation?: number;
}

/**
 * The catalogue search port. The embedded adapter is PostgreSQL
 * (db/pg-song-search.ts); a dedicated engine (OpenSearch, Elasticsearch) fits
 * behind the same port when one PostgreSQL is not enough (README.md, "Search").
 * Best match first: an exact title, then an artist's own songs, then the songs
 * holding every word (the last one as a typed prefix), better matches and more
 * played songs first; a word no song holds is read as the known words one edit
 * away from it.
 */
export interface SongSearch {
  search(query: SongSearchQuery): Promise<Song[]>;
}

/** A ranked search pages no deeper than this (as a search engine's result window): further pages are empty. */
export const SEARCH_WINDOW = 1000;

/** Typo tolerance by word length (as Elasticsearch's AUTO): none below 3 letters, else one edit. */
export function typoBudget(word: string): number {
  return Array.from(word).length < 3 ? 0 : 1;
}

/** The word with each one letter left out: a word and its typos one edit away share one of these (or the word itself). */
export function deletions(word: string): string[] {
  const letters = Array.from(word);
  return [...new Set(letters.map((_, i) => [...letters.slice(0, i), ...letters.slice(i + 1)].join('')))];
}

/**
 * Optimal string alignment distance: insertions, deletions, substitutions and
 * swaps of two neighbouring letters each count one edit ("nigth" is one from "night").
 */
export function editDistance(a: string, b: string): number {
  const s = Array.from(a);
  const t = Array.from(b);
  const d = Array.from({ length: s.length + 1 }, (_, i) => Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= s.length; i += 1) {
    for (let j = 1; j <= t.length; j += 1) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[s.length]![t.length]!;
}

/** The known words within the word's typo budget, nearest first, at most `max`. */
export function corrections(word: string, known: Iterable<string>, max = 5): string[] {
  const budget = typoBudget(word);
  if (budget === 0) return [];
  return [...new Set(known)]
    .map((candidate) => ({ candidate, distance: editDistance(word, candidate) }))
    .filter((c) => c.distance > 0 && c.distance <= budget)
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, max)
    .map((c) => c.candidate);
}

/** One word of a query as the search reads it: itself, or the known words it may be a typo of; the last word is a typed prefix. */
export interface QueryTerm {
  alternatives: string[];
  prefix: boolean;
  /** A prefix's known words, when the adapter spells it out for an index (the same songs as the prefix). */
  words?: string[];
}

/** A PostgreSQL tsquery (every term; any of a term's alternatives), each lexeme quoted. */
export function toTsQuery(terms: QueryTerm[]): string {
  const quote = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  return terms
    .map((term) => {
      const lexemes = term.alternatives.map((a) => `${quote(a)}${term.prefix ? ':*' : ''}`);
      return lexemes.length === 1 ? lexemes[0]! : `(${lexemes.join(' | ')})`;
    })
    .join(' & ');
}

/**
 * Spec 002's mixed search: the first five licensed results, then the two
 * sources in turn (the other one first), the rest of the longer list at the end.
 */
export function interleaveMixed<T>(licensed: T[], other: T[], lead = 5): T[] {
  const out = licensed.slice(0, lead);
  const rest = licensed.slice(lead);
  for (let i = 0; i < Math.max(rest.length, other.length); i += 1) {
    if (i < other.length) out.push(other[i]!);
    if (i < rest.length) out.push(rest[i]!);
  }
  return out;
}

/**
 * Answers a repeated search (the same words, page and filter, any case) from
 * memory, the most recent `maxEntries` of them; searches asked at once share
 * one answer. Search traffic repeats itself (the same few words typed by many
 * people), so most requests never reach the adapter. A search that names the
 * catalogue's generation reuses only answers made under it, for at most
 * `generationTtlMs` (a new or changed song advances the generation, so it
 * shows at once); one that does not, answers made at most `ttlMs` ago (a song
 * added or changed shows that much later).
 */
export class CachedSongSearch implements SongSearch {
  private readonly entries = new Map<string, { at: number; songs: Promise<Song[]> }>();

  constructor(
    private readonly inner: SongSearch,
    private readonly options: { ttlMs: number; generationTtlMs: number; maxEntries: number; now?: () => number },
  ) {}

  search(query: SongSearchQuery): Promise<Song[]> {
    const generation = query.generation ?? 0;
    const ttl = generation > 0 ? this.options.generationTtlMs : this.options.ttlMs;
    if (ttl <= 0) return this.inner.search(query);
    const now = (this.options.now ?? Date.now)();
    const key = JSON.stringify([searchKeyText(query.text), query.limit, query.offset, query.includeExplicit, generation]);
    const hit = this.entries.get(key);
    this.entries.delete(key);
    if (hit && now - hit.at < ttl) {
      this.entries.set(key, hit); // the most recently used last
      return hit.songs;
    }
    const songs = this.inner.search(query);
    this.entries.set(key, { at: now, songs });
    songs.catch(() => {
      if (this.entries.get(key)?.songs === songs) this.entries.delete(key);
    });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.options.maxEntries) break;
      this.entries.delete(oldest);
    }
    return songs;
  }
}
