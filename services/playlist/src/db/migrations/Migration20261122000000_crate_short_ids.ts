import { Migration } from '@mikro-orm/migrations';

/** Short ids for public crate URLs (the service and SEO paths). */
export class Migration20261122000000_crate_short_ids extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "crate" add column "crate_short_id" varchar(16) null`);
    this.addSql(`update "crate" set "crate_short_id" = substr(md5(random()::text || "id"::text), 1, 10) where "crate_short_id" is null`);
    this.addSql(`alter table "crate" alter column "crate_short_id" set not null`);
    this.addSql(`create unique index "crate_short_id_idx" on "crate" ("crate_short_id")`);
    this.addSql(`create index "crate_public_idx" on "crate" ("created_at" desc) where "is_public"`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "crate" drop column "crate_short_id"`);
  }
}
