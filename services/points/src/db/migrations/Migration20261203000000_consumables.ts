import { Migration } from '@mikro-orm/migrations';

/**
 * Consumables (spec 000: displayType cover or small; spec 002: id, tokenCost)
 * and the purchases of them (services/points/README.md, Consumables). A
 * deleted consumable keeps its row (`deleted_at`) so its purchases still name
 * it; a purchase names the hold and the commit that spent its tokens.
 */
export class Migration20261203000000_consumables extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "consumable" (
      "id" uuid primary key,
      "name" varchar(100) not null,
      "description" varchar(500) not null default '',
      "token_cost" bigint not null check ("token_cost" > 0),
      "display_type" varchar(8) not null check ("display_type" in ('cover', 'small')),
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "deleted_at" timestamptz null)`);
    this.addSql(`create index "consumable_created_at" on "consumable" ("created_at") where "deleted_at" is null`);
    this.addSql(`create table "consumable_purchase" (
      "id" uuid primary key,
      "account_id" uuid not null references "token_account" ("id"),
      "user_uuid" varchar(64) not null,
      "consumable_id" uuid not null references "consumable" ("id"),
      "room_uuid" uuid not null,
      "token_cost" bigint not null check ("token_cost" > 0),
      "hold_id" uuid not null unique references "token_transaction" ("id"),
      "commit_id" uuid not null unique references "token_transaction" ("id"),
      "last_token_balance" bigint not null check ("last_token_balance" >= 0),
      "balance_unmodified_since" timestamptz null,
      "created_at" timestamptz not null)`);
    this.addSql(`create index "consumable_purchase_account" on "consumable_purchase" ("account_id", "created_at")`);
    this.addSql(`create index "consumable_purchase_room" on "consumable_purchase" ("room_uuid", "created_at")`);
  }
}
