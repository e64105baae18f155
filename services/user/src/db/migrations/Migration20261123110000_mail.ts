import { Migration } from '@mikro-orm/migrations';

/** An account's email addresses (with their verification codes) and mailed links (magic links, password resets). */
export class Migration20261123110000_mail extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "user_email" (
      "id" serial primary key,
      "user_uuid" uuid not null,
      "email" varchar(254) not null,
      "type" varchar(16) not null check ("type" in ('personal', 'work', 'payment', 'spotify', 'discord')),
      "status" varchar(24) not null check ("status" in ('PENDING_VERIFICATION', 'VERIFIED', 'DELETED', 'CREATED_BY_ADMIN')),
      "code_hash" char(64) null,
      "code_expires_at" timestamptz null,
      "code_attempts" int not null default 0,
      "created_at" timestamptz not null default now(),
      "verified_at" timestamptz null)`);
    // A live address belongs to one account; deleted rows stay as history.
    this.addSql(`create unique index "user_email_live_uq" on "user_email" ("email") where "status" <> 'DELETED'`);
    this.addSql(`create index "user_email_user_idx" on "user_email" ("user_uuid")`);
    // Every account's sign-in address, unproven until a code, a magic link or a reset link comes back.
    this.addSql(`insert into "user_email" ("user_uuid", "email", "type", "status", "created_at")
      select "uuid", "email", 'personal', 'PENDING_VERIFICATION', "created_at" from "user_account" where "email" is not null`);
    this.addSql(`create table "mail_link" (
      "token_hash" char(64) primary key,
      "purpose" varchar(16) not null check ("purpose" in ('magic-link', 'password-reset')),
      "user_uuid" uuid null,
      "email" varchar(254) not null,
      "expires_at" timestamptz not null,
      "used_at" timestamptz null,
      "created_at" timestamptz not null default now())`);
    this.addSql(`create index "mail_link_expires_idx" on "mail_link" ("expires_at")`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "mail_link"`);
    this.addSql(`drop table "user_email"`);
  }
}
