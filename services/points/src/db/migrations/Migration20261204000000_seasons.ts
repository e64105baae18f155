import { Migration } from '@mikro-orm/migrations';

/**
 * Seasons (spec 000: id, name, a start; services/points/README.md). A season
 * ends where the next one starts, so the end is not stored; names and starts are unique.
 */
export class Migration20261204000000_seasons extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "season" (
      "id" uuid primary key,
      "name" varchar(100) not null,
      "start" timestamptz not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "season_name_unique" unique ("name"),
      constraint "season_start_unique" unique ("start"))`);
  }
}
