import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { addToOutbox, type OutboxEntry } from '@spinroom/platform';
import type { Attachment } from '../domain/chat-message.js';
import type { ConversationSummary, StoredDirectMessage, UserEntity } from '../domain/direct-message.js';
import type { ConversationFilter, DirectMessageFilter, DirectMessageStore, MessageQuery, NewDirectMessage } from '../domain/ports.js';
import { narrowPage } from './chat-store.js';

interface DirectMessageRow {
  id: string;
  sender: string;
  receiver: string;
  type: StoredDirectMessage['type'];
  text: string;
  attachments: Attachment[];
  chat_message: Record<string, unknown>;
  sender_entity: UserEntity;
  receiver_entity: UserEntity;
  sent_at: Date;
  updated_at: Date;
  read_at: Date | null;
}

interface SummaryRow {
  partner: string;
  last_id: string;
  created_at: Date;
  updated_at: Date;
  unread: number;
}

/** The columns of a direct message as read back, the id as text; queries name the table "m". */
const COLUMNS = `"m"."id"::text as "id", "m"."sender", "m"."receiver", "m"."type", "m"."text", "m"."attachments", "m"."chat_message",
  "m"."sender_entity", "m"."receiver_entity", "m"."sent_at", "m"."updated_at", "m"."read_at"`;

function toMessage(row: DirectMessageRow): StoredDirectMessage {
  return {
    id: String(row.id),
    sender: row.sender,
    receiver: row.receiver,
    type: row.type,
    text: row.text,
    attachments: row.attachments,
    chatMessage: row.chat_message,
    senderEntity: row.sender_entity,
    receiverEntity: row.receiver_entity,
    sentAt: new Date(row.sent_at),
    updatedAt: new Date(row.updated_at),
    readAt: row.read_at ? new Date(row.read_at) : null,
  };
}

/**
 * One user's conversations summed up: per other user, the last message's id,
 * the first and last send times and how many of the other's messages are unread.
 */
const SUMMARIES = `with "mine" as (
    select "m"."id", "m"."sent_at", "m"."read_at", "m"."receiver",
           case when "m"."sender" = ? then "m"."receiver" else "m"."sender" end as "partner"
      from "direct_message" as "m" where "m"."sender" = ? or "m"."receiver" = ?)
  select "partner", max("id")::text as "last_id", min("sent_at") as "created_at", max("sent_at") as "updated_at",
         (count(*) filter (where "receiver" = ? and "read_at" is null))::int as "unread"
    from "mine" group by "partner"`;

/** Direct messages and their read state in PostgreSQL. */
export class PgDirectMessageStore implements DirectMessageStore {
  constructor(
    private readonly orm: MikroORM,
    /** Called after a commit that staged an event (wakes the outbox relay). */
    private readonly staged: () => void = () => undefined,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  async insert(
    message: NewDirectMessage,
    announce?: (stored: StoredDirectMessage) => OutboxEntry | undefined,
  ): Promise<StoredDirectMessage> {
    let announced = false;
    const stored = await this.em().transactional(async (em) => {
      const [row] = await em.execute<DirectMessageRow[]>(
        `insert into "direct_message" as "m" ("sender", "receiver", "type", "text", "attachments", "chat_message", "sender_entity", "receiver_entity", "sent_at", "updated_at")
         values (?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?) returning ${COLUMNS}`,
        [
          message.sender,
          message.receiver,
          message.type,
          message.text,
          JSON.stringify(message.attachments),
          JSON.stringify(message.chatMessage),
          JSON.stringify(message.senderEntity),
          JSON.stringify(message.receiverEntity),
          message.sentAt,
          message.sentAt,
        ],
      );
      const inserted = toMessage(row!);
      // The message and its announcement commit together, or neither does.
      const entry = announce?.(inserted);
      if (entry) {
        addToOutbox(em, entry);
        announced = true;
      }
      return inserted;
    });
    if (announced) this.staged();
    return stored;
  }

  async messages(filter: DirectMessageFilter, query: MessageQuery): Promise<StoredDirectMessage[]> {
    const { owner } = filter;
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.withUser !== undefined) {
      where.push(`(("m"."sender" = ? and "m"."receiver" = ?) or ("m"."sender" = ? and "m"."receiver" = ?))`);
      params.push(owner, filter.withUser, filter.withUser, owner);
    } else {
      where.push(`("m"."sender" = ? or "m"."receiver" = ?)`);
      params.push(owner, owner);
    }
    if (filter.sender !== undefined) {
      where.push(`"m"."sender" = ?`);
      params.push(filter.sender);
    }
    if (filter.unread) {
      where.push(`"m"."receiver" = ? and "m"."read_at" is null`);
      params.push(owner);
    }
    const forward = narrowPage(query, where, params);
    params.push(query.limit);
    const rows = await this.em().execute<DirectMessageRow[]>(
      `select ${COLUMNS} from "direct_message" as "m" where ${where.join(' and ')} order by "m"."id" ${forward ? 'asc' : 'desc'} limit ?`,
      params,
    );
    const messages = rows.map(toMessage);
    return forward ? messages : messages.reverse();
  }

  private async withLastMessages(rows: SummaryRow[]): Promise<ConversationSummary[]> {
    if (rows.length === 0) return [];
    const messages = await this.em().execute<DirectMessageRow[]>(
      `select ${COLUMNS} from "direct_message" as "m" where "m"."id" in (${rows.map(() => '?::bigint').join(', ')})`,
      rows.map((r) => r.last_id),
    );
    const byId = new Map(messages.map((m) => [String(m.id), toMessage(m)]));
    return rows.map((r) => ({
      partner: r.partner,
      lastMessage: byId.get(String(r.last_id))!,
      unreadMessageCount: Number(r.unread),
      createdAt: new Date(r.created_at),
      updatedAt: new Date(r.updated_at),
    }));
  }

  async conversations(filter: ConversationFilter): Promise<{ conversations: ConversationSummary[]; total: number }> {
    const { owner } = filter;
    const where: string[] = [];
    const params: unknown[] = [owner, owner, owner, owner];
    if (filter.unread) where.push(`"unread" > 0`);
    const extra: unknown[] = [];
    for (const [list, op] of [
      [filter.partnersIn, 'in'],
      [filter.partnersNotIn, 'not in'],
    ] as const) {
      if (list === undefined) continue;
      // An empty "in" matches nothing; an empty "not in" everything.
      if (list.length === 0) {
        if (op === 'in') where.push('false');
        continue;
      }
      where.push(`"partner" ${op} (${list.map(() => '?').join(', ')})`);
      extra.push(...list);
    }
    params.push(...extra);
    const matching = `select * from (${SUMMARIES}) as "s"${where.length > 0 ? ` where ${where.join(' and ')}` : ''}`;
    const em = this.em();
    const [{ total } = { total: 0 }] = await em.execute<Array<{ total: number }>>(
      `select count(*)::int as "total" from (${matching}) as "c"`,
      params,
    );
    const rows = await em.execute<SummaryRow[]>(`${matching} order by "last_id"::bigint desc limit ? offset ?`, [
      ...params,
      filter.limit,
      filter.offset,
    ]);
    return { conversations: await this.withLastMessages(rows), total: Number(total) };
  }

  async conversation(owner: string, partner: string): Promise<ConversationSummary | undefined> {
    const rows = await this.em().execute<SummaryRow[]>(`select * from (${SUMMARIES}) as "s" where "partner" = ?`, [
      owner,
      owner,
      owner,
      owner,
      partner,
    ]);
    const [summary] = await this.withLastMessages(rows);
    return summary;
  }

  async markRead(reader: string, sender: string, upToId: string | undefined, at: Date): Promise<number> {
    const rows = await this.em().execute<Array<{ id: string }>>(
      `update "direct_message" set "read_at" = ?
        where "receiver" = ? and "sender" = ? and "read_at" is null${upToId !== undefined ? ` and "id" <= ?::bigint` : ''} returning "id"`,
      upToId !== undefined ? [at, reader, sender, upToId] : [at, reader, sender],
    );
    return rows.length;
  }
}
