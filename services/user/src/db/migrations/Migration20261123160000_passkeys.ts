import { Migration } from '@mikro-orm/migrations';

/** Passkeys: WebAuthn credentials, each an account's; the credential id is unique across accounts. */
export class Migration20261123160000_passkeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "user_passkey" (
      "id" uuid not null primary key,
      "user_uuid" uuid not null references "user_account" ("uuid") on delete cascade,
      "credential_id" varchar(1024) not null unique,
      "public_key" bytea not null,
      "counter" bigint not null,
      "transports" text[] not null default '{}',
      "name" varchar(64) not null,
      "backed_up" boolean not null,
      "created_at" timestamptz not null,
      "last_used_at" timestamptz null)`);
    this.addSql(`create index "user_passkey_user_uuid_index" on "user_passkey" ("user_uuid")`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "user_passkey"`);
  }
}
