import { Migration } from '@mikro-orm/migrations';

/** The room effects applied here are pruned by age (domain/room-effects.ts): oldest first, by index. */
export class Migration20261207000000_room_effect_pruning extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "room_effect_applied_idx" on "room_effect" ("applied_at")`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "room_effect_applied_idx"`);
  }
}
