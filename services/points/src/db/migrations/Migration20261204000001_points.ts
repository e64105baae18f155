import { Migration } from '@mikro-orm/migrations';

/**
 * Points and rankings (services/points/README.md, "Points"): what the service
 * knows of each sign-up (kind and time, for the account-age rule), every
 * point row (unique per (reference, kind): a play earns at most one row of
 * each kind however often its event comes), and the ranking status per user
 * and season and per user over all time, which the point rows add up to.
 */
export class Migration20261204000001_points extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "user_signup" (
      "user_uuid" uuid primary key,
      "kind" varchar(10) not null,
      "signed_up_at" timestamptz not null)`);
    this.addSql(`create table "point" (
      "id" uuid primary key,
      "user_uuid" uuid not null,
      "season_id" uuid null references "season" ("id"),
      "kind" varchar(10) not null,
      "reference" varchar(300) not null,
      "amount" bigint not null,
      "reason" varchar(500) not null default '',
      "actor" varchar(100) not null default '',
      "earned_at" timestamptz not null,
      "created_at" timestamptz not null,
      constraint "point_reference_kind_unique" unique ("reference", "kind"))`);
    this.addSql(`create index "point_user" on "point" ("user_uuid", "created_at")`);
    this.addSql(`create table "ranking_status" (
      "id" uuid primary key,
      "user_uuid" uuid not null,
      "season_id" uuid not null references "season" ("id"),
      "balance" bigint not null check ("balance" >= 0),
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "ranking_status_user_season_unique" unique ("user_uuid", "season_id"))`);
    this.addSql(`create index "ranking_status_rank" on "ranking_status" ("season_id", "balance" desc, "updated_at", "user_uuid")`);
    this.addSql(`create table "ranking_status_lifetime" (
      "id" uuid primary key,
      "user_uuid" uuid not null unique,
      "balance" bigint not null check ("balance" >= 0),
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null)`);
    this.addSql(`create index "ranking_status_lifetime_rank" on "ranking_status_lifetime" ("balance" desc, "updated_at", "user_uuid")`);
  }
}
