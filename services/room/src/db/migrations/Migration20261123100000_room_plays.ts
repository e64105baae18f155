import { Migration } from '@mikro-orm/migrations';

export class Migration20261123100000_room_plays extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "room_play" (
      "play_id" uuid primary key,
      "room_uuid" uuid not null,
      "dj_uuid" uuid not null,
      "song" jsonb not null,
      "started_at" timestamptz not null,
      "ended_at" timestamptz not null check ("ended_at" >= "started_at"),
      "likes" integer not null default 0,
      "dislikes" integer not null default 0,
      "stars" integer not null default 0,
      "listeners" integer not null default 0)`);
    this.addSql(`create index "room_play_room_idx" on "room_play" ("room_uuid", "ended_at" desc)`);
  }
}
