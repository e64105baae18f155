import { Migration } from '@mikro-orm/migrations';

/** Music-provider links (tokens as ciphertexts) and the Discord account a user signs in with. */
export class Migration20261123150000_providers extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "provider_link" (
      "user_uuid" uuid not null references "user_account" ("uuid") on delete cascade,
      "provider" varchar(16) not null check ("provider" in ('apple', 'soundcloud', 'spotify', 'youtube')),
      "client" varchar(8) not null check ("client" in ('web', 'mobile')),
      "access_token" text null,
      "access_expires_at" timestamptz null,
      "refresh_token" text null,
      "scope" text null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      primary key ("user_uuid", "provider", "client"))`);
    this.addSql(`alter table "user_account" add column "discord_id" varchar(20) null unique`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "user_account" drop column "discord_id"`);
    this.addSql(`drop table "provider_link"`);
  }
}
