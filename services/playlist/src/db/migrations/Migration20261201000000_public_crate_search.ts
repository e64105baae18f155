import { Migration } from '@mikro-orm/migrations';

/** Public crates are searched by name and description anywhere in them (GET /crate/public?q=). */
export class Migration20261201000000_public_crate_search extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "crate_public_text_trgm_idx" on "crate" using gin ((lower("crate_name" || ' ' || "description")) gin_trgm_ops) where "is_public"`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "crate_public_text_trgm_idx"`);
  }
}
