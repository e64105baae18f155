import { Migration } from '@mikro-orm/migrations';

/**
 * Subscriptions (services/payment/README.md): recurring products (an interval
 * and the level they give), the products the App Store sells, the Stripe
 * customer of each user, the subscriptions kept from Stripe's and Apple's
 * notifications and the Apple notifications handled. `source_updated_at` is
 * the time of the notification that last wrote a subscription: an older one
 * arriving later changes nothing.
 */
export class Migration20261204000000_subscriptions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "product" drop constraint if exists "product_payment_type_check"`);
    this.addSql(`alter table "product" drop constraint if exists "product_tokens_check"`);
    this.addSql(`alter table "product" alter column "tokens" drop not null`);
    this.addSql(`alter table "product" add column "interval" varchar(8) null check ("interval" in ('day', 'week', 'month', 'year'))`);
    this.addSql(`alter table "product" add column "level" varchar(32) null`);
    this.addSql(`alter table "product" add column "apple_product_id" varchar(200) null`);
    this.addSql(`alter table "product" add constraint "product_kind_check" check (
      ("payment_type" = 'one_time' and "tokens" > 0 and "interval" is null and "level" is null)
      or ("payment_type" = 'recurring' and "tokens" is null and "interval" is not null and "level" is not null))`);
    this.addSql(
      `create unique index "product_apple_product_id_unique" on "product" ("apple_product_id") where "apple_product_id" is not null`,
    );
    this.addSql(`create table "stripe_customer" (
      "user_uuid" uuid primary key,
      "customer_id" varchar(255) not null unique,
      "created_at" timestamptz not null default now())`);
    this.addSql(`create table "subscription" (
      "id" uuid primary key,
      "provider" varchar(16) not null check ("provider" in ('stripe', 'apple')),
      "provider_subscription_id" varchar(255) not null,
      "user_uuid" uuid not null,
      "product_id" uuid null,
      "level" varchar(32) not null default '',
      "status" varchar(32) not null,
      "region" varchar(8) not null default '',
      "customer_id" varchar(255) null,
      "cancel_at_period_end" boolean not null default false,
      "started_at" timestamptz not null,
      "current_period_start" timestamptz null,
      "current_period_end" timestamptz null,
      "ended_at" timestamptz null,
      "source_updated_at" timestamptz not null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      unique ("provider", "provider_subscription_id"))`);
    this.addSql(`create index "subscription_user_index" on "subscription" ("user_uuid", "started_at" desc)`);
    this.addSql(`create index "subscription_window_index" on "subscription" ("started_at", "ended_at")`);
    this.addSql(`create table "processed_apple_notification" (
      "notification_uuid" uuid primary key,
      "type" varchar(64) not null,
      "processed_at" timestamptz not null default now())`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "processed_apple_notification"`);
    this.addSql(`drop table if exists "subscription"`);
    this.addSql(`drop table if exists "stripe_customer"`);
    this.addSql(`drop index if exists "product_apple_product_id_unique"`);
    this.addSql(`alter table "product" drop constraint if exists "product_kind_check"`);
    this.addSql(`delete from "product" where "payment_type" <> 'one_time'`);
    this.addSql(`alter table "product" drop column "apple_product_id", drop column "level", drop column "interval"`);
    this.addSql(`alter table "product" alter column "tokens" set not null`);
    this.addSql(`alter table "product" add constraint "product_tokens_check" check ("tokens" > 0)`);
    this.addSql(`alter table "product" add constraint "product_payment_type_check" check ("payment_type" in ('one_time'))`);
  }
}
