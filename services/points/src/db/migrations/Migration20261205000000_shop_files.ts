import { Migration } from '@mikro-orm/migrations';

/**
 * The token shop's pictures (spec 000: consumable files, token bundle
 * thumbnails), resized WebP kept with their bytes: a few hundred kilobytes at
 * most, read by id, so the database serves them and no volume is shared
 * between replicas. A consumable names its picture (`file_id`).
 */
export class Migration20261205000000_shop_files extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "shop_file" (
      "id" uuid primary key,
      "purpose" varchar(20) not null check ("purpose" in ('consumable', 'thumbnail')),
      "content_type" varchar(100) not null,
      "width" integer not null check ("width" > 0),
      "height" integer not null check ("height" > 0),
      "content" bytea not null,
      "created_by" uuid not null,
      "created_at" timestamptz not null)`);
    this.addSql(`alter table "consumable" add column "file_id" uuid null references "shop_file" ("id")`);
  }
}
