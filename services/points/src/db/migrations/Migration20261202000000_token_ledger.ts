import { Migration } from '@mikro-orm/migrations';
import { OUTBOX_TABLES_SQL } from '@spinroom/platform';

/**
 * Token accounts and their ledger (services/points/README.md, Tokens).
 * `token_transaction` is append-only (a trigger refuses updates and deletes);
 * an account's totals are the sum of its transactions, kept on its row in the
 * same transaction that appends them (under the row's lock), so the check
 * constraint refuses a negative available balance whatever the code does.
 * `token_open_hold` is the working set of holds not yet ended; a hold ends
 * once (the unique index on `hold_id`).
 */
export class Migration20261202000000_token_ledger extends Migration {
  override async up(): Promise<void> {
    for (const sql of OUTBOX_TABLES_SQL) this.addSql(sql);
    this.addSql(`create table "token_account" (
      "id" uuid primary key,
      "user_uuid" uuid not null unique,
      "status" varchar(16) not null default 'active' check ("status" in ('active', 'disabled')),
      "credited" bigint not null default 0 check ("credited" >= 0),
      "spent" bigint not null default 0 check ("spent" >= 0),
      "held" bigint not null default 0 check ("held" >= 0),
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "token_account_balance_not_negative" check ("credited" - "spent" - "held" >= 0))`);
    this.addSql(`create table "token_transaction" (
      "id" uuid primary key,
      "seq" bigserial not null unique,
      "account_id" uuid not null references "token_account" ("id"),
      "type" varchar(8) not null check ("type" in ('credit', 'hold', 'commit', 'voided')),
      "amount" bigint not null check ("amount" > 0),
      "hold_id" uuid null references "token_transaction" ("id"),
      "expires_at" timestamptz null,
      "expired" boolean not null default false,
      "reason" varchar(500) not null default '',
      "reference" varchar(255) not null default '',
      "balance_after" bigint not null check ("balance_after" >= 0),
      "held_after" bigint not null check ("held_after" >= 0),
      "created_at" timestamptz not null,
      constraint "token_transaction_ends_a_hold" check (("type" in ('commit', 'voided')) = ("hold_id" is not null)),
      constraint "token_transaction_hold_expires" check (("type" = 'hold') = ("expires_at" is not null)),
      constraint "token_transaction_expired_is_a_void" check (not "expired" or "type" = 'voided'))`);
    this.addSql(`create unique index "token_transaction_hold_ends_once" on "token_transaction" ("hold_id") where "hold_id" is not null`);
    this.addSql(`create index "token_transaction_account_idx" on "token_transaction" ("account_id", "seq" desc)`);
    this.addSql(`create function "token_transaction_append_only"() returns trigger language plpgsql as $$
      begin
        raise exception 'token_transaction is append-only: % refused', tg_op;
      end $$`);
    this.addSql(`create trigger "token_transaction_append_only" before update or delete on "token_transaction"
      for each row execute function "token_transaction_append_only"()`);
    this.addSql(`create table "token_open_hold" (
      "hold_id" uuid primary key references "token_transaction" ("id"),
      "account_id" uuid not null references "token_account" ("id"),
      "amount" bigint not null check ("amount" > 0),
      "expires_at" timestamptz not null)`);
    this.addSql(`create index "token_open_hold_account_idx" on "token_open_hold" ("account_id", "expires_at")`);
    this.addSql(`create index "token_open_hold_expiry_idx" on "token_open_hold" ("expires_at")`);
    this.addSql(`create table "token_idempotency_key" (
      "scope" varchar(160) not null,
      "key" varchar(255) not null,
      "fingerprint" char(64) not null,
      "response" jsonb null,
      "created_at" timestamptz not null,
      primary key ("scope", "key"))`);
    this.addSql(`create index "token_idempotency_key_created_idx" on "token_idempotency_key" ("created_at")`);
  }

  override async down(): Promise<void> {
    for (const table of [
      'token_idempotency_key',
      'token_open_hold',
      'token_transaction',
      'token_account',
      'processed_event',
      'outbox_message',
    ]) {
      this.addSql(`drop table "${table}"`);
    }
    this.addSql(`drop function "token_transaction_append_only"()`);
  }
}
