import { Migration } from '@mikro-orm/migrations';

/** Song search: trigram similarity on names and a full-text vector, both indexed. */
export class Migration20261121110000_song_search extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists pg_trgm`);
    this.addSql(
      `alter table "song" add column "search_text" text generated always as (lower("track_name" || ' ' || "artist_name" || ' ' || "album_name")) stored`,
    );
    this.addSql(`alter table "song" add column "search_vector" tsvector generated always as (
      setweight(to_tsvector('simple', "track_name"), 'A') || setweight(to_tsvector('simple', "artist_name"), 'A') ||
      setweight(to_tsvector('simple', "album_name"), 'B') || setweight(to_tsvector('simple', "genre"), 'C')) stored`);
    this.addSql(`create index "song_search_text_trgm_idx" on "song" using gin ("search_text" gin_trgm_ops)`);
    this.addSql(`create index "song_search_vector_idx" on "song" using gin ("search_vector")`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "song" drop column "search_vector"`);
    this.addSql(`alter table "song" drop column "search_text"`);
  }
}
