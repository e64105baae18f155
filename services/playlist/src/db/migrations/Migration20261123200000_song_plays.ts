import { Migration } from '@mikro-orm/migrations';

export class Migration20261123200000_song_plays extends Migration {
  override async up(): Promise<void> {
    // Recent songs of each room, from the room service's `room.song-played` events.
    this.addSql(`create table "song_play" (
      "play_id" uuid primary key,
      "room_uuid" uuid not null,
      "dj_uuid" uuid not null,
      "song" jsonb not null,
      "likes" integer not null default 0,
      "dislikes" integer not null default 0,
      "stars" integer not null default 0,
      "played_at" timestamptz not null)`);
    this.addSql(`create index "song_play_room_idx" on "song_play" ("room_uuid", "played_at" desc)`);
  }
}
