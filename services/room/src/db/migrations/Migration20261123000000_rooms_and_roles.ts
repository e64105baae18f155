import { Migration } from '@mikro-orm/migrations';
import { OUTBOX_TABLES_SQL } from '@spinroom/platform';

export class Migration20261123000000_rooms_and_roles extends Migration {
  override async up(): Promise<void> {
    for (const sql of OUTBOX_TABLES_SQL) this.addSql(sql);
    this.addSql(`create table "room" (
      "id" serial primary key,
      "uuid" uuid not null unique,
      "slug" varchar(64) not null unique check ("slug" = lower("slug")),
      "name" varchar(100) not null,
      "description" text not null default '',
      "vibe" varchar(100) not null default '',
      "dj_type" varchar(16) not null check ("dj_type" in ('EVERYONE', 'INVITE_ONLY', 'PRO_PLAN_OWNER', 'VERIFIED_ONLY')),
      "music_provider_keys" jsonb not null default '[]',
      "number_of_djs" integer not null check ("number_of_djs" between 1 and 10),
      "songs_per_dj" integer not null check ("songs_per_dj" >= 0),
      "room_size" integer not null check ("room_size" > 0),
      "entry_fee" integer not null default 0 check ("entry_fee" >= 0),
      "free_entries" integer not null default 0 check ("free_entries" >= 0),
      "password_hash" varchar(255) null,
      "guest_password_hash" varchar(255) null,
      "type" varchar(8) not null check ("type" in ('PUBLIC', 'PRIVATE')),
      "design" varchar(16) not null,
      "is_live" boolean not null default false,
      "live_audio" boolean not null default false,
      "promoted" boolean not null default false,
      "promoted_providers" jsonb not null default '[]',
      "poster_url" varchar(2048) null,
      "external_url" varchar(2048) null,
      "has_chat" boolean not null default true,
      "unlisted" boolean not null default false,
      "discord_guild_id" varchar(32) null,
      "pinned_messages" jsonb not null default '[]',
      "max_song_length_seconds" integer not null default 0 check ("max_song_length_seconds" >= 0),
      "repeat_window_minutes" integer not null default 0 check ("repeat_window_minutes" >= 0),
      "afk_limit_minutes" integer not null default 0 check ("afk_limit_minutes" >= 0),
      "waitlist_enabled" boolean not null default true,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null)`);
    this.addSql(`create index "room_public_idx" on "room" ("created_at" desc, "id" desc) where "type" = 'PUBLIC' and not "unlisted"`);
    this.addSql(`create index "room_promoted_idx" on "room" ("id") where "promoted"`);
    this.addSql(`create index "room_discord_idx" on "room" ("discord_guild_id") where "discord_guild_id" is not null`);
    this.addSql(`create table "room_user_role" (
      "id" serial primary key,
      "room_id" integer not null references "room" ("id") on delete cascade,
      "user_uuid" uuid not null,
      "role" varchar(16) not null check ("role" in ('owner', 'coOwner', 'moderator', 'dj', 'banned', 'kicked', 'chatDisabled', 'djDisabled')),
      "expiration_time" timestamptz null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      unique ("room_id", "user_uuid", "role"))`);
    // One owner per room.
    this.addSql(`create unique index "room_user_role_owner_idx" on "room_user_role" ("room_id") where "role" = 'owner'`);
    this.addSql(`create index "room_user_role_user_idx" on "room_user_role" ("user_uuid")`);
    this.addSql(`create table "room_favorite" (
      "id" serial primary key,
      "user_uuid" uuid not null,
      "room_id" integer not null references "room" ("id") on delete cascade,
      "created_at" timestamptz not null,
      unique ("user_uuid", "room_id"))`);
    this.addSql(`create table "recent_room" (
      "user_uuid" uuid not null,
      "room_id" integer not null references "room" ("id") on delete cascade,
      "visited_at" timestamptz not null,
      primary key ("user_uuid", "room_id"))`);
    this.addSql(`create index "recent_room_user_idx" on "recent_room" ("user_uuid", "visited_at" desc)`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "recent_room"`);
    this.addSql(`drop table "room_favorite"`);
    this.addSql(`drop table "room_user_role"`);
    this.addSql(`drop table "room"`);
    this.addSql(`drop table "processed_event"`);
    this.addSql(`drop table "outbox_message"`);
  }
}
