import { Migration } from '@mikro-orm/migrations';

/**
 * Direct messages between two users. Their ids come from the room messages'
 * sequence, so a message id names one message whichever table holds it, and
 * ids keep growing across both. `read_at` is the receiver's read state.
 */
export class Migration20261226100000_direct_messages extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "direct_message" (
      "id" bigint primary key default nextval('chat_message_id_seq'),
      "sender" varchar(64) not null,
      "receiver" varchar(64) not null,
      "type" varchar(8) not null check ("type" in ('text', 'image')),
      "text" text not null,
      "attachments" jsonb not null default '[]',
      "chat_message" jsonb not null,
      "sender_entity" jsonb not null,
      "receiver_entity" jsonb not null,
      "sent_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "read_at" timestamptz null,
      check ("sender" <> "receiver"))`);
    this.addSql(`create index "direct_message_sender_idx" on "direct_message" ("sender", "receiver", "id")`);
    this.addSql(`create index "direct_message_receiver_idx" on "direct_message" ("receiver", "sender", "id")`);
    this.addSql(`create index "direct_message_unread_idx" on "direct_message" ("receiver", "sender") where "read_at" is null`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "direct_message"`);
  }
}
