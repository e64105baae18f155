import { Migration } from '@mikro-orm/migrations';

/**
 * Refunds of token bundles (services/payment/README.md, Stripe's webhook):
 * `stripe_purchase` is each paid checkout's purchase by its PaymentIntent
 * (kept with the credit), with the tokens its refunds have claimed back so far
 * (`refunded_tokens`: what was taken plus what could not be); each refund
 * event handled is a row of `stripe_refund`, with what it took back and the
 * shortfall the user had already spent, for support.
 */
export class Migration20261207000000_stripe_refunds extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "stripe_purchase" (
      "payment_intent_id" varchar(255) primary key,
      "checkout_session_id" varchar(255) not null,
      "user_uuid" uuid not null,
      "product_id" uuid null,
      "tokens" bigint not null check ("tokens" > 0),
      "refunded_tokens" bigint not null default 0 check ("refunded_tokens" >= 0 and "refunded_tokens" <= "tokens"),
      "created_at" timestamptz not null default now())`);
    this.addSql(`create table "stripe_refund" (
      "event_id" varchar(255) primary key,
      "payment_intent_id" varchar(255) not null references "stripe_purchase" ("payment_intent_id"),
      "charge_id" varchar(255) not null,
      "amount_refunded" bigint not null,
      "amount" bigint not null,
      "tokens_due" bigint not null check ("tokens_due" >= 0),
      "tokens_taken" bigint not null check ("tokens_taken" >= 0),
      "tokens_short" bigint not null check ("tokens_short" >= 0),
      "created_at" timestamptz not null default now())`);
    this.addSql(`create index "stripe_refund_purchase_idx" on "stripe_refund" ("payment_intent_id", "created_at")`);
    this.addSql(`create index "stripe_refund_short_idx" on "stripe_refund" ("created_at") where "tokens_short" > 0`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "stripe_refund"`);
    this.addSql(`drop table "stripe_purchase"`);
  }
}
