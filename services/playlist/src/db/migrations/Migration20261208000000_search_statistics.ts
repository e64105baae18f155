import { Migration } from '@mikro-orm/migrations';

/**
 * The search (db/pg-song-search.ts) reads how common its words are from the
 * statistics ANALYZE keeps on `search_vector`: its 10,000 most common lexemes
 * (the default target keeps 1,000, leaving out words a few thousand songs of
 * a million hold, and so the prefixes that start many of them).
 */
export class Migration20261208000000_search_statistics extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "song" alter column "search_vector" set statistics 1000`);
    this.addSql(`analyze "song" ("search_vector")`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "song" alter column "search_vector" set statistics -1`);
    this.addSql(`analyze "song" ("search_vector")`);
  }
}
