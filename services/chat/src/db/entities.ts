import { defineEntity, p } from '@mikro-orm/postgresql';

// The chat tables are read and written with SQL (chat-store.ts); these
// definitions name them for MikroORM and keep the ORM's view in step.

/** `chat_message`: room chat messages, ids growing (bigserial). */
export const ChatMessageEntity = defineEntity({
  name: 'ChatMessage',
  tableName: 'chat_message',
  properties: {
    id: p.bigint().primary().autoincrement(),
    receiver: p.string(),
    receiverType: p.string(),
    sender: p.string(),
    type: p.string(),
    category: p.string(),
    text: p.text(),
    attachments: p.json<unknown[]>(),
    chatMessage: p.json<Record<string, unknown>>(),
    senderEntity: p.json<Record<string, unknown>>(),
    sentAt: p.datetime(),
    updatedAt: p.datetime(),
    editedAt: p.datetime().nullable(),
  },
});

/** `chat_group_member`: who joined which room's chat group. */
export const ChatGroupMemberEntity = defineEntity({
  name: 'ChatGroupMember',
  tableName: 'chat_group_member',
  properties: {
    groupId: p.string().primary(),
    uid: p.string().primary(),
    joinedAt: p.datetime(),
  },
});

/** `chat_reaction`: one per user per message per emoji. */
export const ChatReactionEntity = defineEntity({
  name: 'ChatReaction',
  tableName: 'chat_reaction',
  properties: {
    id: p.bigint().primary().autoincrement(),
    messageId: p.bigint(),
    uid: p.string(),
    name: p.string(),
    avatar: p.string(),
    reaction: p.string(),
    reactedAt: p.datetime(),
  },
});

/** `direct_message`: messages between two users, ids from chat_message's sequence. */
export const DirectMessageEntity = defineEntity({
  name: 'DirectMessage',
  tableName: 'direct_message',
  properties: {
    id: p.bigint().primary(),
    sender: p.string(),
    receiver: p.string(),
    type: p.string(),
    text: p.text(),
    attachments: p.json<unknown[]>(),
    chatMessage: p.json<Record<string, unknown>>(),
    senderEntity: p.json<Record<string, unknown>>(),
    receiverEntity: p.json<Record<string, unknown>>(),
    sentAt: p.datetime(),
    updatedAt: p.datetime(),
    readAt: p.datetime().nullable(),
  },
});
