import { Migration } from '@mikro-orm/migrations';
import { OUTBOX_TABLES_SQL } from '@spinroom/platform';

/**
 * The chat reads Kafka (a consumable purchase shown in the room's chat):
 * the kit's processed-event and outbox tables, and a message's `dedupe_key`,
 * unique, so one event makes one message however often it is delivered.
 */
export class Migration20261204100000_chat_events extends Migration {
  override async up(): Promise<void> {
    for (const sql of OUTBOX_TABLES_SQL) this.addSql(sql);
    this.addSql(`alter table "chat_message" add column "dedupe_key" varchar(128) null`);
    this.addSql(`create unique index "chat_message_dedupe_key_idx" on "chat_message" ("dedupe_key") where "dedupe_key" is not null`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "chat_message_dedupe_key_idx"`);
    this.addSql(`alter table "chat_message" drop column "dedupe_key"`);
    this.addSql(`drop table "processed_event"`);
    this.addSql(`drop table "outbox_message"`);
  }
}
