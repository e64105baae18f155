import { Migration } from '@mikro-orm/migrations';
import { OUTBOX_TABLES_SQL } from '@spinroom/platform';

/**
 * The audit service's tables (services/audit/README.md). `play_event_seen`
 * holds each (play id, kind) counted: it is inserted in the transaction that
 * adds the play to `play_total`, so a redelivered event adds nothing.
 * `moderation_action.event_id` is unique: an action from Kafka is stored once.
 */
export class Migration20261206000000_audit extends Migration {
  override async up(): Promise<void> {
    for (const sql of OUTBOX_TABLES_SQL) this.addSql(sql);
    this.addSql(`create table "moderation_action" (
      "id" uuid primary key,
      "event_id" uuid null unique,
      "source" varchar(8) not null check ("source" in ('kafka', 'api')),
      "action_type" varchar(32) not null,
      "previous_role" varchar(64) null,
      "role" varchar(64) null,
      "room_uuid" uuid null,
      "actor_uuid" uuid null,
      "target_uuid" uuid null,
      "actor_token_role" varchar(32) null,
      "expiration_time" timestamptz null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null)`);
    this.addSql(`create index "moderation_action_created_idx" on "moderation_action" ("created_at" desc, "id")`);
    this.addSql(`create index "moderation_action_target_idx" on "moderation_action" ("target_uuid", "created_at" desc)`);
    this.addSql(`create index "moderation_action_actor_idx" on "moderation_action" ("actor_uuid", "created_at" desc)`);
    this.addSql(`create table "play_event_seen" (
      "play_id" varchar(64) not null,
      "kind" smallint not null,
      "seen_at" timestamptz not null default now(),
      primary key ("play_id", "kind"))`);
    this.addSql(`create table "play_total" (
      "scope" varchar(8) not null check ("scope" in ('all', 'song', 'dj', 'room', 'user')),
      "key" varchar(255) not null,
      "total_played" bigint not null default 0,
      "played_seconds" bigint not null default 0,
      "fifteen_second_plays" bigint not null default 0,
      "thirty_second_plays" bigint not null default 0,
      "updated_at" timestamptz not null default now(),
      primary key ("scope", "key"))`);
    this.addSql(`create table "user_last_event" (
      "user_uuid" uuid primary key,
      "name" varchar(64) not null,
      "topic" varchar(64) not null,
      "occurred_at" timestamptz not null,
      "detail" jsonb not null)`);
  }

  override async down(): Promise<void> {
    for (const table of ['user_last_event', 'play_total', 'play_event_seen', 'moderation_action', 'processed_event', 'outbox_message']) {
      this.addSql(`drop table "${table}"`);
    }
  }
}
