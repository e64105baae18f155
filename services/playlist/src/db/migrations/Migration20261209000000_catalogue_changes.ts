import { Migration } from '@mikro-orm/migrations';

/**
 * A committed change to a song that search can return (added, removed, any
 * column but the play count changed) notifies `song_catalogue`; the playlist
 * service listening there advances the catalogue's generation
 * (db/catalogue-changes.ts), under which search answers are kept. NOTIFY is
 * sent at commit, so a generation counts only changes others can read. A
 * play only moves a song's popularity, which the answers' age bounds instead.
 */
export class Migration20261209000000_catalogue_changes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function "song_catalogue_changed"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('song_catalogue', '');
        return null;
      end $$`);
    this.addSql(`create trigger "song_catalogue_rows" after insert or delete or truncate on "song"
      for each statement execute function "song_catalogue_changed"()`);
    this.addSql(`create trigger "song_catalogue_update" after update on "song" for each row
      when ((to_jsonb(old) - 'popularity' - 'updated_at') is distinct from (to_jsonb(new) - 'popularity' - 'updated_at'))
      execute function "song_catalogue_changed"()`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger "song_catalogue_update" on "song"`);
    this.addSql(`drop trigger "song_catalogue_rows" on "song"`);
    this.addSql(`drop function "song_catalogue_changed"()`);
  }
}
