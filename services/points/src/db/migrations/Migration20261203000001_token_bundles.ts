import { Migration } from '@mikro-orm/migrations';

/**
 * Token bundles (spec 000: id, productId, thumbnail; services/points/README.md).
 * A deleted bundle keeps its row (`deleted_at`); a live bundle's productId is unique.
 */
export class Migration20261203000001_token_bundles extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "token_bundle" (
      "id" uuid primary key,
      "name" varchar(100) not null,
      "product_id" varchar(255) not null,
      "tokens" bigint not null check ("tokens" > 0),
      "thumbnail_url" varchar(1000) not null default '',
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "deleted_at" timestamptz null)`);
    this.addSql(`create unique index "token_bundle_live_product" on "token_bundle" ("product_id") where "deleted_at" is null`);
  }
}
