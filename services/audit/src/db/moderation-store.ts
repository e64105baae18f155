import { LockMode, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import type {
  ModerationActionColumn,
  ModerationActionQuery,
  ModerationActionRow,
  ModerationActionStore,
  SelectedAction,
} from '../domain/moderation-actions.js';
import { ModerationActionEntity } from './entities.js';

/**
 * The moderation-actions list as a query builder over the allowed columns
 * (the crud filter is MikroORM's filter over these properties; values are
 * parameters). Ties are broken by id, so pages never overlap.
 */
export function moderationActionsQueryBuilder(em: EntityManager, query: ModerationActionQuery) {
  const orderBy: Record<string, 'asc' | 'desc'>[] = query.orderBy.map(({ field, order }) => ({ [field]: order }));
  if (orderBy.length === 0) orderBy.push({ createdAt: 'desc' });
  if (!query.orderBy.some(({ field }) => field === 'id')) orderBy.push({ id: 'asc' });
  return em
    .createQueryBuilder(ModerationActionEntity)
    .select(query.fields)
    .where(query.where as never)
    .orderBy(orderBy as never)
    .limit(query.limit)
    .offset(query.offset);
}

function selected(row: Record<string, unknown>, fields: ModerationActionColumn[]): SelectedAction {
  return { ...Object.fromEntries(fields.map((field) => [field, row[field] ?? null])), fields };
}

function whole(row: Record<string, unknown>): ModerationActionRow {
  const { eventId: _eventId, ...rest } = row;
  return rest as unknown as ModerationActionRow;
}

/** An action from `moderation-actions`, in the consumer's transaction; stored once per event id. */
export async function recordModerationEvent(em: EntityManager, row: ModerationActionRow & { eventId: string }): Promise<boolean> {
  const inserted = await em.execute<unknown[]>(
    `insert into "moderation_action" ("id", "event_id", "source", "action_type", "previous_role", "role", "room_uuid", "actor_uuid",
       "target_uuid", "actor_token_role", "expiration_time", "created_at", "updated_at")
     values (?, ?, 'kafka', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("event_id") do nothing returning "id"`,
    [
      row.id,
      row.eventId,
      row.actionType,
      row.previousRole,
      row.role,
      row.roomUuid,
      row.actorUuid,
      row.targetUuid,
      row.actorTokenRole,
      row.expirationTime,
      row.createdAt,
      row.updatedAt,
    ],
  );
  return inserted.length > 0;
}

export class PgModerationActionStore implements ModerationActionStore {
  constructor(private readonly orm: MikroORM) {}

  async query(query: ModerationActionQuery): Promise<{ rows: SelectedAction[]; total: number }> {
    const [rows, total] = await moderationActionsQueryBuilder(this.orm.em.fork(), query).getResultAndCount();
    return { rows: rows.map((row) => selected(row as unknown as Record<string, unknown>, query.fields)), total };
  }

  async find(id: string, fields: ModerationActionColumn[]): Promise<SelectedAction | null> {
    const row = await this.orm.em.fork().findOne(ModerationActionEntity, { id }, { fields: fields as never });
    return row ? selected(row, fields) : null;
  }

  async insert(rows: ModerationActionRow[]): Promise<void> {
    const em = this.orm.em.fork();
    await em.transactional(async (tx) => {
      for (const row of rows) tx.create(ModerationActionEntity, { ...row, eventId: null });
    });
  }

  async update(id: string, changes: Partial<ModerationActionRow>): Promise<ModerationActionRow | null> {
    const em = this.orm.em.fork();
    return em.transactional(async (tx) => {
      const row = await tx.findOne(ModerationActionEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row) return null;
      tx.assign(row, changes as never);
      await tx.flush();
      return whole(row);
    });
  }

  async delete(id: string): Promise<ModerationActionRow | null> {
    const em = this.orm.em.fork();
    return em.transactional(async (tx) => {
      const row = await tx.findOne(ModerationActionEntity, { id });
      if (!row) return null;
      tx.remove(row);
      await tx.flush();
      return whole(row);
    });
  }

  async byUser(userUuid: string, limit: number, offset: number): Promise<{ rows: ModerationActionRow[]; total: number }> {
    const [rows, total] = await this.orm.em
      .fork()
      .findAndCount(
        ModerationActionEntity,
        { $or: [{ targetUuid: userUuid }, { actorUuid: userUuid }] },
        { orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], limit, offset },
      );
    return { rows: rows.map((row) => whole(row as unknown as Record<string, unknown>)), total };
  }
}
