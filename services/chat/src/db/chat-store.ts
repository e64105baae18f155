import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Attachment, StoredMessage, StoredReaction } from '../domain/chat-message.js';
import type { ChatStore, MessageQuery, NewStoredMessage } from '../domain/ports.js';

interface MessageRow {
  id: string;
  receiver: string;
  sender: string;
  type: StoredMessage['type'];
  text: string;
  attachments: Attachment[];
  chat_message: Record<string, unknown>;
  sender_entity: StoredMessage['senderEntity'];
  sent_at: Date;
  updated_at: Date;
  edited_at: Date | null;
}

interface ReactionRow {
  id: string;
  message_id: string;
  uid: string;
  name: string;
  avatar: string;
  reaction: string;
  reacted_at: Date;
}

/**
 * The columns of a message as read back, the id as text (a bigint may pass
 * 2^53). Queries name the table "m" and order and compare by "m"."id", the
 * bigint: a bare "id" in ORDER BY is this text alias, which sorts "10" before "9".
 */
const COLUMNS = `"m"."id"::text as "id", "m"."receiver", "m"."sender", "m"."type", "m"."text", "m"."attachments", "m"."chat_message", "m"."sender_entity", "m"."sent_at", "m"."updated_at", "m"."edited_at"`;

/** Whether a query bounds the messages from below (what affix=append reads forward from). */
function hasLowerBound(query: MessageQuery): boolean {
  return query.id !== undefined || query.fromTimestamp !== undefined || query.sentAt !== undefined || query.updatedAt !== undefined;
}

/**
 * Adds a history query's bounds and cursors (table "m") to `where` and
 * `params`; answers whether the page reads forward (the oldest after a lower
 * bound, with append) rather than the newest back. Rooms and direct messages page alike.
 */
export function narrowPage(query: MessageQuery, where: string[], params: unknown[]): boolean {
  const append = query.affix === 'append';
  if (query.hiddenSenders && query.hiddenSenders.length > 0) {
    where.push(`"m"."sender" not in (${query.hiddenSenders.map(() => '?').join(', ')})`);
    params.push(...query.hiddenSenders);
  }
  if (query.id !== undefined) {
    where.push(`"m"."id" ${append ? '>' : '<'} ?::bigint`);
    params.push(query.id);
  }
  // Times are whole seconds, as messages read back: a message sent at T.5 s
  // has sentAt T, so "at or before T" is "before T + 1".
  const atOrAfter = (column: string, seconds: number) => {
    where.push(`"m"."${column}" >= to_timestamp(?)`);
    params.push(seconds);
  };
  const atOrBefore = (column: string, seconds: number) => {
    where.push(`"m"."${column}" < to_timestamp(?)`);
    params.push(seconds + 1);
  };
  // Bounds whatever the affix.
  if (query.fromTimestamp !== undefined) atOrAfter('sent_at', query.fromTimestamp);
  if (query.toTimestamp !== undefined) atOrBefore('sent_at', query.toTimestamp);
  // Cursors that follow the affix.
  for (const [column, seconds] of [
    ['sent_at', query.sentAt],
    ['updated_at', query.updatedAt],
  ] as const) {
    if (seconds === undefined) continue;
    if (append) atOrAfter(column, seconds);
    else atOrBefore(column, seconds);
  }
  // Append reads forward from a lower bound (an id, fromTimestamp, sentAt or
  // updatedAt); anything else reads the newest back.
  return append && hasLowerBound(query);
}

function toMessage(row: MessageRow): StoredMessage {
  return {
    id: String(row.id),
    receiver: row.receiver,
    receiverType: 'group',
    sender: row.sender,
    type: row.type,
    category: 'message',
    text: row.text,
    attachments: row.attachments,
    chatMessage: row.chat_message,
    senderEntity: row.sender_entity,
    sentAt: new Date(row.sent_at),
    updatedAt: new Date(row.updated_at),
    editedAt: row.edited_at ? new Date(row.edited_at) : null,
  };
}

/** Messages, group memberships and reactions in PostgreSQL. */
export class PgChatStore implements ChatStore {
  constructor(private readonly orm: MikroORM) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  async join(groupId: string, uid: string, at: Date): Promise<boolean> {
    const rows = await this.em().execute<Array<{ uid: string }>>(
      `insert into "chat_group_member" ("group_id", "uid", "joined_at") values (?, ?, ?) on conflict do nothing returning "uid"`,
      [groupId, uid, at],
    );
    return rows.length > 0;
  }

  async leave(groupId: string, uid: string): Promise<boolean> {
    const rows = await this.em().execute<Array<{ uid: string }>>(
      `delete from "chat_group_member" where "group_id" = ? and "uid" = ? returning "uid"`,
      [groupId, uid],
    );
    return rows.length > 0;
  }

  async isMember(groupId: string, uid: string): Promise<boolean> {
    const rows = await this.em().execute(`select 1 from "chat_group_member" where "group_id" = ? and "uid" = ?`, [groupId, uid]);
    return rows.length > 0;
  }

  async insert(message: NewStoredMessage): Promise<StoredMessage> {
    const [row] = await this.em().execute<MessageRow[]>(
      `insert into "chat_message" as "m" ("receiver", "receiver_type", "sender", "type", "category", "text", "attachments", "chat_message", "sender_entity", "sent_at", "updated_at")
       values (?, 'group', ?, ?, 'message', ?, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?) returning ${COLUMNS}`,
      [
        message.receiver,
        message.sender,
        message.type,
        message.text,
        JSON.stringify(message.attachments),
        JSON.stringify(message.chatMessage),
        JSON.stringify(message.senderEntity),
        message.sentAt,
        message.sentAt,
      ],
    );
    return toMessage(row!);
  }

  async insertOnce(message: NewStoredMessage, dedupeKey: string): Promise<StoredMessage | undefined> {
    const [row] = await this.em().execute<MessageRow[]>(
      `insert into "chat_message" as "m" ("receiver", "receiver_type", "sender", "type", "category", "text", "attachments", "chat_message", "sender_entity", "sent_at", "updated_at", "dedupe_key")
       values (?, 'group', ?, ?, 'message', ?, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?, ?)
       on conflict ("dedupe_key") where "dedupe_key" is not null do nothing returning ${COLUMNS}`,
      [
        message.receiver,
        message.sender,
        message.type,
        message.text,
        JSON.stringify(message.attachments),
        JSON.stringify(message.chatMessage),
        JSON.stringify(message.senderEntity),
        message.sentAt,
        message.sentAt,
        dedupeKey,
      ],
    );
    return row ? toMessage(row) : undefined;
  }

  async message(id: string): Promise<StoredMessage | undefined> {
    const [row] = await this.em().execute<MessageRow[]>(`select ${COLUMNS} from "chat_message" as "m" where "m"."id" = ?::bigint`, [id]);
    return row ? toMessage(row) : undefined;
  }

  async messages(groupId: string, query: MessageQuery): Promise<StoredMessage[]> {
    const where = [`"m"."receiver" = ?`];
    const params: unknown[] = [groupId];
    const forward = narrowPage(query, where, params);
    params.push(query.limit);
    const rows = await this.em().execute<MessageRow[]>(
      `select ${COLUMNS} from "chat_message" as "m" where ${where.join(' and ')} order by "m"."id" ${forward ? 'asc' : 'desc'} limit ?`,
      params,
    );
    const messages = rows.map(toMessage);
    return forward ? messages : messages.reverse();
  }

  async lastOwnMessageId(groupId: string, sender: string): Promise<string | null> {
    const [row] = await this.em().execute<Array<{ id: string }>>(
      `select "m"."id"::text as "id" from "chat_message" as "m" where "m"."receiver" = ? and "m"."sender" = ? order by "m"."id" desc limit 1`,
      [groupId, sender],
    );
    return row ? String(row.id) : null;
  }

  async updateText(id: string, text: string, chatMessage: Record<string, unknown>, at: Date): Promise<StoredMessage> {
    const [row] = await this.em().execute<MessageRow[]>(
      `update "chat_message" as "m" set "text" = ?, "chat_message" = ?::jsonb, "updated_at" = ?, "edited_at" = ? where "m"."id" = ?::bigint returning ${COLUMNS}`,
      [text, JSON.stringify(chatMessage), at, at, id],
    );
    return toMessage(row!);
  }

  async reactions(messageIds: string[]): Promise<StoredReaction[]> {
    if (messageIds.length === 0) return [];
    const rows = await this.em().execute<ReactionRow[]>(
      `select "r"."id"::text as "id", "r"."message_id"::text as "message_id", "r"."uid", "r"."name", "r"."avatar", "r"."reaction", "r"."reacted_at"
       from "chat_reaction" as "r" where "r"."message_id" in (${messageIds.map(() => '?::bigint').join(', ')}) order by "r"."id"`,
      messageIds,
    );
    return rows.map((r) => ({
      id: r.id,
      messageId: r.message_id,
      uid: r.uid,
      name: r.name,
      avatar: r.avatar,
      reaction: r.reaction,
      reactedAt: new Date(r.reacted_at),
    }));
  }

  async setReaction(input: {
    messageId: string;
    uid: string;
    name: string;
    avatar: string;
    reaction: string;
    on: boolean;
    at: Date;
  }): Promise<boolean> {
    return this.em().transactional(async (em) => {
      const rows = input.on
        ? await em.execute(
            `insert into "chat_reaction" ("message_id", "uid", "name", "avatar", "reaction", "reacted_at") values (?, ?, ?, ?, ?, ?)
             on conflict ("message_id", "uid", "reaction") do nothing returning "id"`,
            [input.messageId, input.uid, input.name, input.avatar, input.reaction, input.at],
          )
        : await em.execute(`delete from "chat_reaction" where "message_id" = ? and "uid" = ? and "reaction" = ? returning "id"`, [
            input.messageId,
            input.uid,
            input.reaction,
          ]);
      if (rows.length === 0) return false;
      await em.execute(`update "chat_message" set "updated_at" = ? where "id" = ?`, [input.at, input.messageId]);
      return true;
    });
  }
}
