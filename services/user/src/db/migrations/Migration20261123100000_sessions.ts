import { Migration } from '@mikro-orm/migrations';

/** Bots: each user's one bot, itself a `user_account` row of kind bot. */
export class Migration20261123100000_sessions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "user_bot" (
      "owner_uuid" uuid not null primary key references "user_account" ("uuid") on delete cascade,
      "bot_uuid" uuid not null unique references "user_account" ("uuid") on delete cascade,
      "created_at" timestamptz not null)`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "user_bot"`);
  }
}
