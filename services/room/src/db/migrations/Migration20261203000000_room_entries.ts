import { Migration } from '@mikro-orm/migrations';

/** Paid rooms: each user's entries to a room with a fee, and whether they paid it (once per user per room). */
export class Migration20261203000000_room_entries extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "room_entry" (
      "room_uuid" uuid not null,
      "user_uuid" uuid not null,
      "entries" integer not null default 0 check ("entries" >= 0),
      "charge_attempt" integer not null default 0 check ("charge_attempt" >= 0),
      "paid_at" timestamptz null,
      "fee_paid" integer null check ("fee_paid" > 0),
      "hold_id" uuid null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      primary key ("room_uuid", "user_uuid"))`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "room_entry"`);
  }
}
