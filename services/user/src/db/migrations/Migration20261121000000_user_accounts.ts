import { Migration } from '@mikro-orm/migrations';
import { OUTBOX_TABLES_SQL } from '@spinroom/platform';

export class Migration20261121000000_user_accounts extends Migration {
  override async up(): Promise<void> {
    for (const sql of OUTBOX_TABLES_SQL) this.addSql(sql);
    this.addSql(`create sequence "guest_number_seq"`);
    this.addSql(`create table "user_account" (
      "id" serial primary key,
      "uuid" uuid not null unique,
      "kind" varchar(8) not null check ("kind" in ('user', 'guest', 'bot')),
      "email" varchar(254) null unique,
      "password_hash" varchar(255) null,
      "roles" text[] not null default '{user}',
      "capabilities" text[] not null default '{}',
      "badges" text[] not null default '{}',
      "nickname" varchar(64) not null,
      "color" varchar(7) not null,
      "avatar_id" varchar(64) not null,
      "discord" varchar(255) null,
      "discord_nickname" varchar(255) null,
      "first_name" varchar(255) null,
      "last_name" varchar(255) null,
      "pronoun" varchar(255) null,
      "display_pronouns" boolean not null default false,
      "song_of_the_week" varchar(255) null,
      "song" jsonb null,
      "cover_picture" varchar(255) null,
      "facebook" varchar(255) null,
      "instagram" varchar(255) null,
      "twitter" varchar(255) null,
      "snapchat" varchar(255) null,
      "tiktok" varchar(255) null,
      "price_for_gig" varchar(255) null,
      "zodiac" varchar(255) null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      check (("kind" = 'guest') = ("email" is null)))`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "user_account"`);
    this.addSql(`drop sequence "guest_number_seq"`);
    this.addSql(`drop table "processed_event"`);
    this.addSql(`drop table "outbox_message"`);
  }
}
