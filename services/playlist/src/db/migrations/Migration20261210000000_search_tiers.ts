import { Migration } from '@mikro-orm/migrations';

/**
 * The words of the most played songs, in tiers (songs played at least 50,000,
 * 10,000 and 1,000 times), each a partial GIN index: the search
 * (db/pg-song-search.ts, TIERS: the same predicates) finds the best songs
 * holding words that thousands of songs hold among a tier's rows before it
 * reads every match's. `"popularity" + 0`: the popularity btree cannot take the
 * predicate, so a plan reads the tier's index.
 */
export class Migration20261210000000_search_tiers extends Migration {
  override async up(): Promise<void> {
    for (const [name, plays] of TIERS) {
      this.addSql(`create index "song_search_vector_${name}_idx" on "song" using gin ("search_vector") where "popularity" + 0 >= ${plays}`);
    }
  }

  override async down(): Promise<void> {
    for (const [name] of TIERS) this.addSql(`drop index "song_search_vector_${name}_idx"`);
  }
}

const TIERS = [
  ['top', 50_000],
  ['hot', 10_000],
  ['warm', 1_000],
] as const;
