import { Migration } from '@mikro-orm/migrations';
import { OUTBOX_TABLES_SQL } from '@spinroom/platform';

export class Migration20261121100000_crates_and_songs extends Migration {
  override async up(): Promise<void> {
    for (const sql of OUTBOX_TABLES_SQL) this.addSql(sql);
    this.addSql(`create table "song" (
      "id" serial primary key,
      "song_id" uuid not null unique,
      "song_short_id" varchar(16) not null unique,
      "isrc" varchar(16) not null default '',
      "track_name" varchar(512) not null,
      "artist_name" varchar(512) not null,
      "duration" integer not null default 0 check ("duration" >= 0),
      "explicit" boolean not null default false,
      "genre" varchar(255) not null default '',
      "release_year" integer null,
      "album_name" varchar(512) not null default '',
      "music_providers" jsonb not null default '{}',
      "thumbnails" jsonb not null default '{}',
      "links" jsonb not null default '{}',
      "previews" jsonb not null default '{}',
      "stream_urls" jsonb not null default '{}',
      "status" varchar(32) not null,
      "playback_token" varchar(1024) not null default '',
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null)`);
    this.addSql(`create index "song_isrc_idx" on "song" ("isrc") where "isrc" <> ''`);
    this.addSql(`create index "song_names_idx" on "song" (lower("track_name"), lower("artist_name"))`);
    this.addSql(`create index "song_music_providers_idx" on "song" using gin ("music_providers" jsonb_path_ops)`);
    this.addSql(`create table "crate" (
      "id" serial primary key,
      "crate_uuid" uuid not null unique,
      "user_uuid" uuid not null,
      "crate_name" varchar(100) not null,
      "description" varchar(1000) not null default '',
      "is_public" boolean not null default false,
      "special" varchar(8) null check ("special" in ('queue', 'likes')),
      "current_position" integer not null default 0,
      "import_status" varchar(16) not null default 'COMPLETE',
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null)`);
    this.addSql(`create index "crate_user_idx" on "crate" ("user_uuid", "created_at" desc)`);
    this.addSql(`create unique index "crate_special_idx" on "crate" ("user_uuid", "special") where "special" is not null`);
    this.addSql(`create table "crate_song" (
      "id" serial primary key,
      "crate_song_uuid" uuid not null unique,
      "crate_id" integer not null references "crate" ("id") on delete cascade,
      "song_id" integer not null references "song" ("id"),
      "position" integer not null,
      "added_at" timestamptz not null default now(),
      -- Deferred, so a renumbering statement may pass through duplicates.
      constraint "crate_song_position_unique" unique ("crate_id", "position") deferrable initially deferred)`);
  }

  override async down(): Promise<void> {
    for (const table of ['crate_song', 'crate', 'song', 'processed_event', 'outbox_message']) this.addSql(`drop table "${table}"`);
  }
}
