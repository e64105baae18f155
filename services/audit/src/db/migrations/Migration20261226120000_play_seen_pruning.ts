import { Migration } from '@mikro-orm/migrations';

/**
 * `play_event_seen` is pruned by age (PgPlayStore.forgetSeen): an index on
 * `seen_at` finds the old rows without reading the table.
 */
export class Migration20261226120000_play_seen_pruning extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "play_event_seen_seen_at_idx" on "play_event_seen" ("seen_at")`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "play_event_seen_seen_at_idx"`);
  }
}
