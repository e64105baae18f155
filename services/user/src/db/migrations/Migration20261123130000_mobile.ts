import { Migration } from '@mikro-orm/migrations';

/** Phones: the numbers accounts sign in with, verified identities, the admins' whitelist and recent validations. */
export class Migration20261123130000_mobile extends Migration {
  override async up(): Promise<void> {
    // An account signed up by phone has no email: only guests are bound to have none.
    this.addSql(`alter table "user_account" drop constraint "user_account_check"`);
    this.addSql(`alter table "user_account" add constraint "user_account_guest_email_check" check ("kind" <> 'guest' or "email" is null)`);
    // One account per number; an account may hold several (an admin adds one).
    this.addSql(`create table "phone_number" (
      "id" uuid primary key,
      "user_uuid" uuid not null references "user_account" ("uuid") on delete cascade,
      "phone" varchar(16) not null unique,
      "created_at" timestamptz not null)`);
    this.addSql(`create index "phone_number_user_idx" on "phone_number" ("user_uuid")`);
    // A verified number proves one account's identity.
    this.addSql(`create table "user_identity" (
      "id" uuid primary key,
      "user_uuid" uuid not null references "user_account" ("uuid") on delete cascade,
      "channel" varchar(8) not null check ("channel" in ('sms')),
      "phone" varchar(16) not null,
      "created_at" timestamptz not null,
      unique ("channel", "phone"))`);
    this.addSql(`create index "user_identity_user_idx" on "user_identity" ("user_uuid", "created_at")`);
    this.addSql(`create table "phone_whitelist" (
      "id" uuid primary key,
      "phone" varchar(16) not null unique,
      "note" varchar(255) null,
      "created_by" uuid not null,
      "created_at" timestamptz not null)`);
    this.addSql(`create table "phone_validation" (
      "id" uuid primary key,
      "phone" varchar(64) not null,
      "status" varchar(16) not null check ("status" in ('VALID', 'INVALID', 'VOIP', 'VALIDATION_ERROR')),
      "line_type" varchar(32) null,
      "country_code" varchar(2) null,
      "whitelisted" boolean not null,
      "validated_at" timestamptz not null)`);
    this.addSql(`create index "phone_validation_recent_idx" on "phone_validation" ("validated_at" desc)`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "phone_validation"`);
    this.addSql(`drop table "phone_whitelist"`);
    this.addSql(`drop table "user_identity"`);
    this.addSql(`drop table "phone_number"`);
    this.addSql(`alter table "user_account" drop constraint "user_account_guest_email_check"`);
    this.addSql(`alter table "user_account" add constraint "user_account_check" check (("kind" = 'guest') = ("email" is null))`);
  }
}
