import { Migration } from '@mikro-orm/migrations';

export class Migration20261124000000_imports_and_analysis extends Migration {
  override async up(): Promise<void> {
    // A crate import waiting for (or held by) a worker; the row goes when the crate is COMPLETE or FAILED.
    this.addSql(`create table "crate_import" (
      "id" serial primary key,
      "crate_id" integer not null unique references "crate" ("id") on delete cascade,
      "music_provider" varchar(32) not null,
      "playlist_id" varchar(255) not null,
      "country" varchar(2) not null,
      "attempts" integer not null default 0,
      "run_after" timestamptz not null default now(),
      "lease_until" timestamptz null,
      "created_at" timestamptz not null default now())`);
    this.addSql(`create index "crate_import_due_idx" on "crate_import" ("run_after")`);
    // The music-analysis service's (Cyanite) library track for a catalogue song, and what it found.
    this.addSql(`create table "song_analysis" (
      "library_track_id" varchar(64) primary key,
      "song_id" integer not null unique references "song" ("id") on delete cascade,
      "status" varchar(16) not null default 'ENQUEUED' check ("status" in ('ENQUEUED', 'FINISHED', 'FAILED')),
      "genre_tags" jsonb not null default '[]',
      "mood_tags" jsonb not null default '[]',
      "bpm" real null,
      "updated_at" timestamptz not null default now())`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "song_analysis"`);
    this.addSql(`drop table "crate_import"`);
  }
}
