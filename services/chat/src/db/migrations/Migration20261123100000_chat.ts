import { Migration } from '@mikro-orm/migrations';

/** Room chat: messages, group memberships and reactions. */
export class Migration20261123100000_chat extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "chat_message" (
      "id" bigserial primary key,
      "receiver" varchar(64) not null,
      "receiver_type" varchar(8) not null check ("receiver_type" in ('group')),
      "sender" varchar(64) not null,
      "type" varchar(8) not null check ("type" in ('text', 'image')),
      "category" varchar(16) not null default 'message',
      "text" text not null,
      "attachments" jsonb not null default '[]',
      "chat_message" jsonb not null,
      "sender_entity" jsonb not null,
      "sent_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "edited_at" timestamptz null)`);
    this.addSql(`create index "chat_message_receiver_idx" on "chat_message" ("receiver", "id")`);
    this.addSql(`create index "chat_message_sender_idx" on "chat_message" ("receiver", "sender", "id")`);
    this.addSql(`create index "chat_message_updated_idx" on "chat_message" ("receiver", "updated_at")`);
    this.addSql(`create table "chat_group_member" (
      "group_id" varchar(64) not null,
      "uid" varchar(64) not null,
      "joined_at" timestamptz not null,
      primary key ("group_id", "uid"))`);
    this.addSql(`create table "chat_reaction" (
      "id" bigserial primary key,
      "message_id" bigint not null references "chat_message" ("id") on delete cascade,
      "uid" varchar(64) not null,
      "name" varchar(255) not null,
      "avatar" varchar(255) not null,
      "reaction" varchar(64) not null,
      "reacted_at" timestamptz not null,
      unique ("message_id", "uid", "reaction"))`);
  }
}
