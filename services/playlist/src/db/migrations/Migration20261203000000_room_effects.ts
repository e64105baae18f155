import { Migration } from '@mikro-orm/migrations';

/**
 * The room service's effects applied here, by key (`requeue:<play id>`,
 * `snag:<play id>:<user uuid>`): the room service replays a play's effects
 * after a crash, and an effect already applied is not applied again.
 */
export class Migration20261203000000_room_effects extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "room_effect" ("key" text primary key, "applied_at" timestamptz not null default now())`);
  }
}
