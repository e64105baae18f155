import { Migration } from '@mikro-orm/migrations';

export class Migration20261124100000_song_name_trigrams extends Migration {
  override async up(): Promise<void> {
    // `GET /search?term` matches names with ILIKE '%term%': trigram GIN indexes serve that without a scan.
    this.addSql(`create extension if not exists pg_trgm`);
    this.addSql(`create index "song_track_name_trgm_idx" on "song" using gin ("track_name" gin_trgm_ops)`);
    this.addSql(`create index "song_artist_name_trgm_idx" on "song" using gin ("artist_name" gin_trgm_ops)`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "song_artist_name_trgm_idx"`);
    this.addSql(`drop index "song_track_name_trgm_idx"`);
  }
}
