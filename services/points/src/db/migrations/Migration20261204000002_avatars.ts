import { Migration } from '@mikro-orm/migrations';

/**
 * Avatars and their assignments (spec 000: avatarStatus, assignmentType;
 * services/points/README.md, "Avatars"). A SEASON_AWARD avatar names its
 * season (set null if the season goes) and the rank that earns it; a user has
 * an avatar at most once, and its assignments go with a deleted avatar.
 */
export class Migration20261204000002_avatars extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "avatar" (
      "slug" varchar(64) primary key,
      "name" varchar(100) not null,
      "status" varchar(20) not null check ("status" in ('PUBLIC', 'PRIVATE', 'SEASON_AWARD', 'SUBSCRIBER_ONLY')),
      "discord_only" boolean not null default false,
      "season_id" uuid null references "season" ("id") on delete set null,
      "rank_threshold" integer null check ("rank_threshold" > 0),
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null)`);
    this.addSql(`create index "avatar_season" on "avatar" ("season_id") where "status" = 'SEASON_AWARD'`);
    this.addSql(`create table "avatar_assignment" (
      "id" uuid primary key,
      "avatar_slug" varchar(64) not null references "avatar" ("slug") on delete cascade,
      "user_uuid" uuid not null,
      "assignment_type" varchar(20) not null check ("assignment_type" in ('MANUAL', 'SEASON_AWARD', 'PURCHASED')),
      "season_id" uuid null,
      "created_at" timestamptz not null,
      constraint "avatar_assignment_unique" unique ("avatar_slug", "user_uuid"))`);
    this.addSql(`create index "avatar_assignment_user" on "avatar_assignment" ("user_uuid")`);
  }
}
