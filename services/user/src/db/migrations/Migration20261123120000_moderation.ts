import { Migration } from '@mikro-orm/migrations';

/** Bans and deactivation on the account; vouchers and moderation comments. */
export class Migration20261123120000_moderation extends Migration {
  override async up(): Promise<void> {
    // banned_at set and banned_until null: a permanent ban; banned_until past: the ban is over.
    this.addSql(`alter table "user_account"
      add column "banned_at" timestamptz null,
      add column "banned_until" timestamptz null,
      add column "deactivation_requested_at" timestamptz null,
      add column "deactivated_at" timestamptz null`);
    this.addSql(`create index "user_account_deactivation_requested_idx" on "user_account" ("deactivation_requested_at")
      where "deactivation_requested_at" is not null and "deactivated_at" is null`);
    this.addSql(`create table "voucher" (
      "id" uuid primary key,
      "code" varchar(64) not null unique,
      "status" varchar(8) not null check ("status" in ('PENDING', 'REDEEMED', 'REVOKED')),
      "created_by" uuid not null,
      "redeemed_by" uuid null,
      "created_at" timestamptz not null,
      "redeemed_at" timestamptz null,
      check (("status" = 'REDEEMED') = ("redeemed_by" is not null)))`);
    this.addSql(`create table "moderation_comment" (
      "id" uuid primary key,
      "user_uuid" uuid not null,
      "author_uuid" uuid not null,
      "comment" varchar(2000) not null,
      "created_at" timestamptz not null)`);
    this.addSql(`create index "moderation_comment_user_idx" on "moderation_comment" ("user_uuid", "created_at")`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "moderation_comment"`);
    this.addSql(`drop table "voucher"`);
    this.addSql(`alter table "user_account" drop column "banned_at", drop column "banned_until",
      drop column "deactivation_requested_at", drop column "deactivated_at"`);
  }
}
