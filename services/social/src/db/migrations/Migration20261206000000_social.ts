import { Migration } from '@mikro-orm/migrations';
import { OUTBOX_TABLES_SQL } from '@spinroom/platform';

/**
 * Blocks, devices, DJ fans, friend invitations and friendships, and the
 * hashed address books (services/social/README.md). A pair of users has at
 * most one pending invitation whichever way it goes, and one friendship
 * (stored once, the smaller uuid first). Contacts and the users' directory
 * hold only HMACs of normalised emails and phone numbers, never the values.
 */
export class Migration20261206000000_social extends Migration {
  override async up(): Promise<void> {
    for (const sql of OUTBOX_TABLES_SQL) this.addSql(sql);
    this.addSql(`create table "blocked_user" (
      "id" uuid primary key,
      "blocker_uuid" uuid not null,
      "blocked_uuid" uuid not null,
      "created_at" timestamptz not null,
      constraint "blocked_user_pair_unique" unique ("blocker_uuid", "blocked_uuid"),
      constraint "blocked_user_not_self" check ("blocker_uuid" <> "blocked_uuid"))`);
    this.addSql(`create index "blocked_user_blocked_index" on "blocked_user" ("blocked_uuid")`);
    this.addSql(`create table "device" (
      "id" uuid primary key,
      "user_uuid" uuid not null,
      "token" varchar(2048) not null,
      "type" varchar(16) not null check ("type" in ('ios', 'android', 'web')),
      "web_push_p256dh" varchar(256) null,
      "web_push_auth" varchar(128) null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "device_token_unique" unique ("token"))`);
    this.addSql(`create index "device_user_index" on "device" ("user_uuid", "created_at" desc)`);
    this.addSql(`create table "dj_fan" (
      "id" uuid primary key,
      "fan_uuid" uuid not null,
      "dj_uuid" uuid not null,
      "created_at" timestamptz not null,
      constraint "dj_fan_pair_unique" unique ("dj_uuid", "fan_uuid"),
      constraint "dj_fan_not_self" check ("fan_uuid" <> "dj_uuid"))`);
    this.addSql(`create index "dj_fan_dj_index" on "dj_fan" ("dj_uuid", "created_at" desc, "id")`);
    this.addSql(`create index "dj_fan_fan_index" on "dj_fan" ("fan_uuid", "created_at" desc, "id")`);
    this.addSql(`create table "friend_invitation" (
      "id" uuid primary key,
      "from_uuid" uuid not null,
      "to_uuid" uuid not null,
      "status" varchar(16) not null default 'PENDING' check ("status" in ('PENDING', 'ACCEPTED', 'REJECTED')),
      "created_at" timestamptz not null,
      "answered_at" timestamptz null,
      constraint "friend_invitation_not_self" check ("from_uuid" <> "to_uuid"))`);
    this.addSql(`create unique index "friend_invitation_pending_pair" on "friend_invitation"
      (least("from_uuid", "to_uuid"), greatest("from_uuid", "to_uuid")) where "status" = 'PENDING'`);
    this.addSql(
      `create index "friend_invitation_to_index" on "friend_invitation" ("to_uuid", "created_at" desc) where "status" = 'PENDING'`,
    );
    this.addSql(
      `create index "friend_invitation_from_index" on "friend_invitation" ("from_uuid", "created_at" desc) where "status" = 'PENDING'`,
    );
    this.addSql(`create table "friendship" (
      "id" uuid primary key,
      "user_a" uuid not null,
      "user_b" uuid not null,
      "created_at" timestamptz not null,
      constraint "friendship_pair_unique" unique ("user_a", "user_b"),
      constraint "friendship_ordered" check ("user_a" < "user_b"))`);
    this.addSql(`create index "friendship_user_b_index" on "friendship" ("user_b")`);
    this.addSql(`create table "user_book_contact" (
      "id" uuid primary key,
      "owner_uuid" uuid not null,
      "kind" varchar(8) not null check ("kind" in ('phone', 'email')),
      "hash" char(64) not null,
      "created_at" timestamptz not null,
      constraint "user_book_contact_unique" unique ("owner_uuid", "hash"))`);
    this.addSql(`create index "user_book_contact_hash_index" on "user_book_contact" ("hash")`);
    this.addSql(`create table "contact_directory" (
      "hash" char(64) not null,
      "user_uuid" uuid not null,
      "kind" varchar(8) not null check ("kind" in ('phone', 'email')),
      "created_at" timestamptz not null,
      primary key ("hash", "user_uuid"))`);
    this.addSql(`create index "contact_directory_user_index" on "contact_directory" ("user_uuid")`);
  }

  override async down(): Promise<void> {
    for (const table of [
      'contact_directory',
      'user_book_contact',
      'friendship',
      'friend_invitation',
      'dj_fan',
      'device',
      'blocked_user',
      'processed_event',
      'outbox_message',
    ]) {
      this.addSql(`drop table if exists "${table}"`);
    }
  }
}
