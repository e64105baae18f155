import { Migration } from '@mikro-orm/migrations';

/** Artists, albums and genres, filled as songs are catalogued (names compared case-insensitively). */
export class Migration20261121120000_artists_albums_genres extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "artist" (
      "id" serial primary key,
      "artist_short_id" varchar(16) not null unique,
      "name" varchar(512) not null,
      "created_at" timestamptz not null default now())`);
    this.addSql(`create unique index "artist_name_idx" on "artist" (lower("name"))`);
    this.addSql(`create table "album" (
      "id" serial primary key,
      "album_short_id" varchar(16) not null unique,
      "name" varchar(512) not null,
      "artist_id" integer not null references "artist" ("id"),
      "created_at" timestamptz not null default now())`);
    this.addSql(`create unique index "album_name_idx" on "album" ("artist_id", lower("name"))`);
    this.addSql(`create table "genre" (
      "id" serial primary key,
      "name" varchar(255) not null,
      "created_at" timestamptz not null default now())`);
    this.addSql(`create unique index "genre_name_idx" on "genre" (lower("name"))`);
    this.addSql(`alter table "song" add column "artist_id" integer null references "artist" ("id")`);
    this.addSql(`alter table "song" add column "album_id" integer null references "album" ("id")`);
    this.addSql(`create index "song_artist_idx" on "song" ("artist_id")`);
    this.addSql(`create index "song_album_idx" on "song" ("album_id")`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "song" drop column "album_id"`);
    this.addSql(`alter table "song" drop column "artist_id"`);
    for (const table of ['genre', 'album', 'artist']) this.addSql(`drop table "${table}"`);
  }
}
