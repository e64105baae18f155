import { Migration } from '@mikro-orm/migrations';

/**
 * Products and the Stripe events handled (services/payment/README.md).
 * `processed_stripe_event` makes the webhook idempotent: an event's row is
 * inserted in the transaction that handles it, so a redelivery finds it.
 */
export class Migration20261203000000_products extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "product" (
      "id" uuid primary key,
      "name" varchar(200) not null,
      "description" varchar(2000) not null default '',
      "payment_type" varchar(16) not null default 'one_time' check ("payment_type" in ('one_time')),
      "price" bigint not null check ("price" > 0),
      "currency" varchar(3) not null,
      "tokens" bigint not null check ("tokens" > 0),
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null)`);
    this.addSql(`create index "product_created_at_index" on "product" ("created_at" desc, "id")`);
    this.addSql(`create table "processed_stripe_event" (
      "event_id" varchar(255) primary key,
      "type" varchar(255) not null,
      "processed_at" timestamptz not null default now())`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "processed_stripe_event"`);
    this.addSql(`drop table if exists "product"`);
  }
}
