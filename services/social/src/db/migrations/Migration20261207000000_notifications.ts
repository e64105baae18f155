import { Migration } from '@mikro-orm/migrations';

/**
 * Notifications (services/social/README.md, "Notifications"): each person's
 * preferences (muted kinds, quiet hours), the rooms people wait for a seat
 * in, when each DJ's fans were last told they took the stage (the digest
 * window), and the fan-outs that stream a large audience into the
 * `notifications` topic batch by batch (the cursor is the last recipient
 * written, so a restart resumes where it stopped).
 */
export class Migration20261207000000_notifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "notification_preference" (
      "user_uuid" uuid primary key,
      "muted_kinds" text[] not null default '{}',
      "quiet_start_minute" smallint null check ("quiet_start_minute" between 0 and 1439),
      "quiet_end_minute" smallint null check ("quiet_end_minute" between 0 and 1439),
      "quiet_time_zone" varchar(64) null,
      "updated_at" timestamptz not null)`);
    this.addSql(`create table "room_seat_watch" (
      "room_uuid" uuid not null,
      "user_uuid" uuid not null,
      "created_at" timestamptz not null,
      primary key ("room_uuid", "user_uuid"))`);
    this.addSql(`create index "room_seat_watch_user_index" on "room_seat_watch" ("user_uuid", "created_at" desc)`);
    this.addSql(`create table "dj_stage_digest" (
      "dj_uuid" uuid primary key,
      "notified_at" timestamptz not null)`);
    this.addSql(`create table "notification_fanout" (
      "id" uuid primary key,
      "audience" varchar(20) not null check ("audience" in ('djFans', 'seatWatchers', 'allDevices', 'users')),
      "subject_uuid" uuid null,
      "kind" varchar(32) not null,
      "title" varchar(200) not null,
      "body" varchar(2000) not null,
      "data" jsonb not null,
      "silent" boolean not null,
      "channel" varchar(8) not null,
      "user_uuids" uuid[] null,
      "cursor" uuid null,
      "sent" integer not null default 0,
      "created_at" timestamptz not null,
      "finished_at" timestamptz null)`);
    this.addSql(`create index "notification_fanout_pending_index" on "notification_fanout" ("created_at") where "finished_at" is null`);
  }

  override async down(): Promise<void> {
    for (const table of ['notification_fanout', 'dj_stage_digest', 'room_seat_watch', 'notification_preference']) {
      this.addSql(`drop table if exists "${table}"`);
    }
  }
}
