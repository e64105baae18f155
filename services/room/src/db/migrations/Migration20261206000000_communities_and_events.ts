import { Migration } from '@mikro-orm/migrations';

/**
 * Communities (their members and rooms) and events. The special communities
 * `jqbx` and `web3`, which clients check membership of (spec 002), exist from
 * the start. An event's `live_at` is set once, by whichever replica's clock
 * claims it first (for update skip locked), in the transaction that makes its
 * room live and stages the members' notification.
 */
export class Migration20261206000000_communities_and_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "community" (
      "id" serial primary key,
      "uuid" uuid not null unique,
      "slug" varchar(64) not null unique,
      "name" varchar(100) not null,
      "description" text not null default '',
      "image_url" varchar(2048) null,
      "owner_uuid" uuid null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now())`);
    this.addSql(`create table "community_member" (
      "community_id" integer not null references "community" ("id") on delete cascade,
      "user_uuid" uuid not null,
      "role" varchar(16) not null check ("role" in ('owner', 'moderator', 'member')),
      "joined_at" timestamptz not null default now(),
      primary key ("community_id", "user_uuid"))`);
    this.addSql(`create index "community_member_user_idx" on "community_member" ("user_uuid")`);
    this.addSql(`create unique index "community_member_one_owner" on "community_member" ("community_id") where "role" = 'owner'`);
    this.addSql(`create table "community_room" (
      "community_id" integer not null references "community" ("id") on delete cascade,
      "room_id" integer not null references "room" ("id") on delete cascade,
      "added_at" timestamptz not null default now(),
      primary key ("community_id", "room_id"))`);
    this.addSql(`create index "community_room_room_idx" on "community_room" ("room_id")`);
    this.addSql(`create table "event" (
      "id" serial primary key,
      "uuid" uuid not null unique,
      "slug" varchar(64) not null unique,
      "name" varchar(100) not null,
      "description" text not null default '',
      "image_url" varchar(2048) null,
      "room_id" integer not null references "room" ("id") on delete cascade,
      "community_id" integer null references "community" ("id") on delete set null,
      "start_time" timestamptz not null,
      "end_time" timestamptz not null,
      "live_at" timestamptz null,
      "created_by" uuid not null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      check ("end_time" > "start_time"))`);
    this.addSql(`create index "event_due_idx" on "event" ("start_time") where "live_at" is null`);
    this.addSql(`create index "event_end_idx" on "event" ("end_time")`);
    this.addSql(`insert into "community" ("uuid", "slug", "name", "description") values
      (gen_random_uuid(), 'jqbx', 'JQBX', 'The JQBX community'),
      (gen_random_uuid(), 'web3', 'Web3', 'The Web3 community')`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "event"`);
    this.addSql(`drop table "community_room"`);
    this.addSql(`drop table "community_member"`);
    this.addSql(`drop table "community"`);
  }
}
