import { Migration } from '@mikro-orm/migrations';

/** The profiles area: each user's client data, and profile and cover pictures. */
export class Migration20261123140000_profiles extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "user_profile_data" (
      "user_uuid" uuid primary key references "user_account" ("uuid") on delete cascade,
      "data" jsonb not null default '{}',
      "updated_at" timestamptz not null default now()
    )`);
    this.addSql(`create table "user_profile_image" (
      "id" uuid primary key,
      "user_uuid" uuid not null references "user_account" ("uuid") on delete cascade,
      "kind" varchar(16) not null check ("kind" in ('profilePicture', 'coverPicture')),
      "width" int not null,
      "height" int not null,
      "content_type" varchar(32) not null,
      "created_at" timestamptz not null
    )`);
    this.addSql(`create index "user_profile_image_user_uuid_idx" on "user_profile_image" ("user_uuid")`);
    // The SEO listing of recently changed profiles reads in this order.
    this.addSql(`create index "user_account_updated_at_idx" on "user_account" ("updated_at" desc, "id")`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "user_account_updated_at_idx"`);
    this.addSql(`drop table "user_profile_image"`);
    this.addSql(`drop table "user_profile_data"`);
  }
}
