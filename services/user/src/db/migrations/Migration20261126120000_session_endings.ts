import { Migration } from '@mikro-orm/migrations';

/**
 * When each user's sessions last ended, kept beside Redis's copy (which every
 * verifier reads): Redis may lose its data, and then these are written back.
 */
export class Migration20261126120000_session_endings extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "session_ending" (
      "user_uuid" uuid not null primary key,
      "valid_after" timestamptz not null)`);
    this.addSql(`create index "session_ending_valid_after_index" on "session_ending" ("valid_after")`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "session_ending"`);
  }
}
