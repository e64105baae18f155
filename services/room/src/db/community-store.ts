import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import { isUuid, type CrudQuery } from '@spinroom/platform';
import type { Community, CommunityEvent, CommunityFields, CommunityMember, EventFields, MemberRole } from '../domain/community-rules.js';
import type { CommunityRef, CommunityStore, EventFilter, EventRef } from '../domain/communities.js';
import type { Tx, Visibility } from '../domain/room-store.js';
import { CommunityEntity, EventEntity } from './community-entities.js';
import type { PgRoomStore, PgTx } from './room-store.js';

const emOf = (tx: Tx) => (tx as PgTx).em;

const COMMUNITY_SELECT = `select c."id", c."uuid", c."slug", c."name", c."description", c."image_url", c."owner_uuid", c."created_at", c."updated_at",
  (select count(*)::int from "community_member" m where m."community_id" = c."id") as "members_count",
  (select count(*)::int from "community_room" cr where cr."community_id" = c."id") as "rooms_count"
  from "community" c`;

const EVENT_SELECT = `select e."id", e."uuid", e."slug", e."name", e."description", e."image_url", e."room_id", e."community_id",
  e."start_time", e."end_time", e."live_at", e."created_by", e."created_at", e."updated_at",
  r."uuid" as "room_uuid", r."slug" as "room_slug", r."name" as "room_name",
  c."uuid" as "community_uuid", c."slug" as "community_slug", c."name" as "community_name"
  from "event" e join "room" r on r."id" = e."room_id" left join "community" c on c."id" = e."community_id"`;

type Row = Record<string, unknown>;
const date = (value: unknown) => (value instanceof Date ? value : new Date(value as string));
const dateOrNull = (value: unknown) => (value === null || value === undefined ? null : date(value));
const textOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

function toCommunity(row: Row): Community {
  return {
    id: Number(row.id),
    uuid: String(row.uuid),
    slug: String(row.slug),
    name: String(row.name),
    description: String(row.description),
    imageUrl: textOrNull(row.image_url),
    ownerUuid: textOrNull(row.owner_uuid),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
    membersCount: Number(row.members_count ?? 0),
    roomsCount: Number(row.rooms_count ?? 0),
  };
}

function toEvent(row: Row): CommunityEvent {
  return {
    id: Number(row.id),
    uuid: String(row.uuid),
    slug: String(row.slug),
    name: String(row.name),
    description: String(row.description),
    imageUrl: textOrNull(row.image_url),
    roomId: Number(row.room_id),
    roomUuid: String(row.room_uuid),
    roomSlug: String(row.room_slug),
    roomName: String(row.room_name),
    communityId: row.community_id === null ? null : Number(row.community_id),
    communityUuid: textOrNull(row.community_uuid),
    communitySlug: textOrNull(row.community_slug),
    communityName: textOrNull(row.community_name),
    startTime: date(row.start_time),
    endTime: date(row.end_time),
    liveAt: dateOrNull(row.live_at),
    createdBy: String(row.created_by),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  };
}

/** `id`, `uuid` or `slug` as a where clause over the alias. */
function refWhere(alias: string, ref: CommunityRef | EventRef): { sql: string; params: unknown[] } | null {
  if ('id' in ref) return { sql: `${alias}."id" = ?`, params: [ref.id] };
  if ('uuid' in ref) return isUuid(ref.uuid) ? { sql: `${alias}."uuid" = ?`, params: [ref.uuid.toLowerCase()] } : null;
  return { sql: `${alias}."slug" = ?`, params: [ref.slug.toLowerCase()] };
}

/** Savepoint, so a slug clash leaves the surrounding transaction usable; false on the clash. */
async function unlessSlugTaken(em: EntityManager, fn: (inner: EntityManager) => Promise<void>): Promise<boolean> {
  try {
    await em.transactional(fn);
    return true;
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) return false;
    throw error;
  }
}

/** Communities, members, room links and events in PostgreSQL, written in the room store's transactions (one outbox). */
export class PgCommunityStore implements CommunityStore {
  constructor(
    private readonly orm: MikroORM,
    private readonly rooms: PgRoomStore,
  ) {}

  private em(tx?: Tx): EntityManager {
    return tx ? emOf(tx) : this.orm.em.fork();
  }

  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.rooms.write(fn);
  }

  async findCommunity(ref: CommunityRef, tx?: Tx, lock = false): Promise<Community | null> {
    const where = refWhere('c', ref);
    if (!where) return null;
    const [row] = await this.em(tx).execute<Row[]>(`${COMMUNITY_SELECT} where ${where.sql}${lock ? ' for update of c' : ''}`, where.params);
    return row ? toCommunity(row) : null;
  }

  async communitiesByIds(ids: number[]): Promise<Community[]> {
    if (ids.length === 0) return [];
    const rows = await this.em().execute<Row[]>(`${COMMUNITY_SELECT} where c."id" in (?)`, [ids]);
    const byId = new Map(rows.map((r) => [Number(r.id), toCommunity(r)]));
    return ids.map((id) => byId.get(id)).filter((c): c is Community => c !== undefined);
  }

  async insertCommunity(tx: Tx, fields: Required<CommunityFields> & { slug: string }): Promise<Community | null> {
    const em = emOf(tx);
    let id = 0;
    const inserted = await unlessSlugTaken(em, async (inner) => {
      const [row] = await inner.execute<Row[]>(
        `insert into "community" ("uuid", "slug", "name", "description", "image_url", "owner_uuid") values (?, ?, ?, ?, ?, ?) returning "id"`,
        [randomUUID(), fields.slug, fields.name, fields.description, fields.imageUrl, fields.ownerUuid],
      );
      id = Number(row!.id);
    });
    return inserted ? this.findCommunity({ id }, tx) : null;
  }

  async slugsLike(table: 'community' | 'event', base: string): Promise<Set<string>> {
    const rows = await this.em().execute<{ slug: string }[]>(`select "slug" from "${table}" where "slug" = ? or "slug" like ?`, [
      base,
      `${base}-%`,
    ]);
    return new Set(rows.map((r) => r.slug));
  }

  async updateCommunity(tx: Tx, id: number, fields: CommunityFields): Promise<boolean> {
    const columns: Array<[string, unknown]> = [
      ['name', fields.name],
      ['slug', fields.slug],
      ['description', fields.description],
      ['image_url', fields.imageUrl],
      ['owner_uuid', fields.ownerUuid],
    ].filter(([, value]) => value !== undefined) as Array<[string, unknown]>;
    return unlessSlugTaken(emOf(tx), async (inner) => {
      await inner.execute(`update "community" set ${columns.map(([c]) => `"${c}" = ?, `).join('')}"updated_at" = now() where "id" = ?`, [
        ...columns.map(([, v]) => v),
        id,
      ]);
    });
  }

  /** The owner's membership follows `owner_uuid`: the previous owner stays as a moderator, the new one is the owner. */
  async setOwnerMembership(tx: Tx, communityId: number, ownerUuid: string | null): Promise<void> {
    const em = emOf(tx);
    await em.execute(
      `update "community_member" set "role" = 'moderator' where "community_id" = ? and "role" = 'owner' and "user_uuid" is distinct from ?`,
      [communityId, ownerUuid],
    );
    if (ownerUuid) {
      await em.execute(
        `insert into "community_member" ("community_id", "user_uuid", "role") values (?, ?, 'owner')
         on conflict ("community_id", "user_uuid") do update set "role" = 'owner'`,
        [communityId, ownerUuid],
      );
    }
  }

  async deleteCommunity(tx: Tx, id: number): Promise<void> {
    await emOf(tx).execute(`delete from "community" where "id" = ?`, [id]);
  }

  async adminCommunities(query: CrudQuery): Promise<{ rows: Community[]; total: number }> {
    const ids = await this.adminIds(CommunityEntity, query);
    return { rows: await this.communitiesByIds(ids.ids), total: ids.total };
  }

  async adminEvents(query: CrudQuery): Promise<{ rows: CommunityEvent[]; total: number }> {
    const ids = await this.adminIds(EventEntity, query);
    return { rows: await this.eventsByIds(ids.ids), total: ids.total };
  }

  /** A crud query's page of ids (the filter is MikroORM's, over the entity's allowed properties), with the total. */
  private async adminIds(entity: typeof CommunityEntity | typeof EventEntity, query: CrudQuery): Promise<{ ids: number[]; total: number }> {
    const orderBy: Record<string, 'asc' | 'desc'>[] = query.orderBy.map(({ field, order }) => ({ [field]: order }));
    if (!query.orderBy.some(({ field }) => field === 'id')) orderBy.push({ id: 'asc' });
    const [found, total] = await this.em()
      .createQueryBuilder(entity as typeof CommunityEntity)
      .select(['id'])
      .where(query.where as never)
      .orderBy(orderBy as never)
      .limit(query.limit)
      .offset(query.offset)
      .getResultAndCount();
    return { ids: found.map((row) => row.id), total };
  }

  async membership(communityId: number, userUuid: string, tx?: Tx): Promise<MemberRole | null> {
    if (!isUuid(userUuid)) return null;
    const [row] = await this.em(tx).execute<{ role: MemberRole }[]>(
      `select "role" from "community_member" where "community_id" = ? and "user_uuid" = ?`,
      [communityId, userUuid],
    );
    return row?.role ?? null;
  }

  async memberships(communityIds: number[], userUuid: string): Promise<Map<number, MemberRole>> {
    if (communityIds.length === 0 || !isUuid(userUuid)) return new Map();
    const rows = await this.em().execute<{ community_id: number; role: MemberRole }[]>(
      `select "community_id", "role" from "community_member" where "community_id" in (?) and "user_uuid" = ?`,
      [communityIds, userUuid],
    );
    return new Map(rows.map((r) => [Number(r.community_id), r.role]));
  }

  async members(communityId: number, page: { limit: number; offset: number }): Promise<{ members: CommunityMember[]; total: number }> {
    const em = this.em();
    const [{ total }] = (await em.execute<{ total: number }[]>(
      `select count(*)::int as "total" from "community_member" where "community_id" = ?`,
      [communityId],
    )) as [{ total: number }];
    const rows = await em.execute<{ user_uuid: string; role: MemberRole; joined_at: Date }[]>(
      `select "user_uuid", "role", "joined_at" from "community_member" where "community_id" = ?
       order by case "role" when 'owner' then 0 when 'moderator' then 1 else 2 end, "joined_at", "user_uuid" limit ? offset ?`,
      [communityId, page.limit, page.offset],
    );
    return { members: rows.map((r) => ({ userUuid: r.user_uuid, role: r.role, joinedAt: date(r.joined_at) })), total };
  }

  async memberUuids(communityId: number, tx?: Tx): Promise<string[]> {
    const rows = await this.em(tx).execute<{ user_uuid: string }[]>(
      `select "user_uuid" from "community_member" where "community_id" = ? order by "joined_at", "user_uuid"`,
      [communityId],
    );
    return rows.map((r) => r.user_uuid);
  }

  /** A member with this role (kept as it is when `onlyNew` and already a member); answers the membership. */
  async putMember(tx: Tx, communityId: number, userUuid: string, role: MemberRole, onlyNew = false): Promise<CommunityMember> {
    const [row] = await emOf(tx).execute<{ user_uuid: string; role: MemberRole; joined_at: Date }[]>(
      `insert into "community_member" ("community_id", "user_uuid", "role") values (?, ?, ?)
       on conflict ("community_id", "user_uuid") do update set "role" = ${onlyNew ? `"community_member"."role"` : 'excluded."role"'}
       returning "user_uuid", "role", "joined_at"`,
      [communityId, userUuid, role],
    );
    return { userUuid: row!.user_uuid, role: row!.role, joinedAt: date(row!.joined_at) };
  }

  async removeMember(tx: Tx, communityId: number, userUuid: string): Promise<boolean> {
    const rows = await emOf(tx).execute<Row[]>(
      `delete from "community_member" where "community_id" = ? and "user_uuid" = ? returning 1 as "gone"`,
      [communityId, userUuid],
    );
    return rows.length > 0;
  }

  async addRooms(tx: Tx, communityId: number, roomIds: number[]): Promise<number> {
    if (roomIds.length === 0) return 0;
    const rows = await emOf(tx).execute<Row[]>(
      `insert into "community_room" ("community_id", "room_id") select ?, unnest(?::int[]) on conflict do nothing returning 1 as "added"`,
      [communityId, `{${roomIds.join(',')}}`],
    );
    return rows.length;
  }

  async removeRooms(tx: Tx, communityId: number, roomIds: number[]): Promise<number> {
    if (roomIds.length === 0) return 0;
    const rows = await emOf(tx).execute<Row[]>(
      `delete from "community_room" where "community_id" = ? and "room_id" in (?) returning 1 as "removed"`,
      [communityId, roomIds],
    );
    return rows.length;
  }

  async listCommunities(
    filter: { search: string },
    page: { limit: number; offset: number },
  ): Promise<{ communities: Community[]; total: number }> {
    const pattern = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const where = filter.search ? `where lower(c."name") like ? or c."slug" like ?` : '';
    const params = filter.search ? [pattern, pattern] : [];
    const rows = await this.em().execute<Row[]>(
      `select * from (${COMMUNITY_SELECT} ${where}) c order by c."members_count" desc, c."name", c."id" limit ? offset ?`,
      [...params, page.limit, page.offset],
    );
    const [count] = await this.em().execute<Row[]>(`select count(*)::int as "total" from "community" c ${where}`, params);
    return { communities: rows.map(toCommunity), total: Number(count?.total ?? 0) };
  }

  async communitiesOfRoom(roomId: number): Promise<Community[]> {
    const rows = await this.em().execute<Row[]>(
      `${COMMUNITY_SELECT} where exists (select 1 from "community_room" x where x."community_id" = c."id" and x."room_id" = ?) order by c."name", c."id"`,
      [roomId],
    );
    return rows.map(toCommunity);
  }

  async communitiesOfUser(userUuid: string): Promise<Array<{ community: Community; role: MemberRole }>> {
    if (!isUuid(userUuid)) return [];
    const rows = await this.em().execute<Row[]>(
      `${COMMUNITY_SELECT.replace('from "community" c', `, m."role" as "member_role" from "community" c join "community_member" m on m."community_id" = c."id"`)}
       where m."user_uuid" = ? order by m."joined_at", c."id"`,
      [userUuid],
    );
    return rows.map((r) => ({ community: toCommunity(r), role: r.member_role as MemberRole }));
  }

  async insertEvent(
    tx: Tx,
    event: Required<Omit<EventFields, 'imageUrl'>> & {
      imageUrl: string | null;
      roomId: number;
      communityId: number | null;
      createdBy: string;
    },
  ): Promise<CommunityEvent | null> {
    let id = 0;
    const inserted = await unlessSlugTaken(emOf(tx), async (inner) => {
      const [row] = await inner.execute<Row[]>(
        `insert into "event" ("uuid", "slug", "name", "description", "image_url", "room_id", "community_id", "start_time", "end_time", "created_by")
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning "id"`,
        [
          randomUUID(),
          event.slug,
          event.name,
          event.description,
          event.imageUrl,
          event.roomId,
          event.communityId,
          event.startTime,
          event.endTime,
          event.createdBy,
        ],
      );
      id = Number(row!.id);
    });
    return inserted ? this.findEvent({ id }, tx) : null;
  }

  async findEvent(ref: EventRef, tx?: Tx, lock = false): Promise<CommunityEvent | null> {
    const where = refWhere('e', ref);
    if (!where) return null;
    const [row] = await this.em(tx).execute<Row[]>(`${EVENT_SELECT} where ${where.sql}${lock ? ' for update of e' : ''}`, where.params);
    return row ? toEvent(row) : null;
  }

  private async eventsByIds(ids: number[]): Promise<CommunityEvent[]> {
    if (ids.length === 0) return [];
    const rows = await this.em().execute<Row[]>(`${EVENT_SELECT} where e."id" in (?)`, [ids]);
    const byId = new Map(rows.map((r) => [Number(r.id), toEvent(r)]));
    return ids.map((id) => byId.get(id)).filter((e): e is CommunityEvent => e !== undefined);
  }

  /** Changes an event; `relive` clears `live_at` (a new start still to come goes live again). False on a slug clash. */
  async updateEvent(
    tx: Tx,
    id: number,
    fields: EventFields & { roomId?: number; communityId?: number | null },
    relive: boolean,
  ): Promise<boolean> {
    const columns = (
      [
        ['name', fields.name],
        ['slug', fields.slug],
        ['description', fields.description],
        ['image_url', fields.imageUrl],
        ['room_id', fields.roomId],
        ['community_id', fields.communityId],
        ['start_time', fields.startTime],
        ['end_time', fields.endTime],
      ] as Array<[string, unknown]>
    ).filter(([, value]) => value !== undefined);
    return unlessSlugTaken(emOf(tx), async (inner) => {
      await inner.execute(
        `update "event" set ${columns.map(([c]) => `"${c}" = ?, `).join('')}${relive ? `"live_at" = null, ` : ''}"updated_at" = now() where "id" = ?`,
        [...columns.map(([, v]) => v), id],
      );
    });
  }

  async deleteEvent(tx: Tx, id: number): Promise<void> {
    await emOf(tx).execute(`delete from "event" where "id" = ?`, [id]);
  }

  async listEvents(filter: EventFilter, page: { limit: number; offset: number }): Promise<{ events: CommunityEvent[]; total: number }> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    if (filter.endsAfter) {
      conditions.push(`e."end_time" > ?`);
      params.push(filter.endsAfter);
    }
    if (filter.communityId !== undefined) {
      conditions.push(`e."community_id" = ?`);
      params.push(filter.communityId);
    }
    const shown = visibleRooms(filter.visibleTo);
    conditions.push(shown.sql);
    params.push(...shown.params);
    const where = conditions.join(' and ');
    const em = this.em();
    const [{ total }] = (await em.execute<{ total: number }[]>(
      `select count(*)::int as "total" from "event" e join "room" r on r."id" = e."room_id" where ${where}`,
      params,
    )) as [{ total: number }];
    const rows = await em.execute<Row[]>(`${EVENT_SELECT} where ${where} order by e."start_time", e."id" limit ? offset ?`, [
      ...params,
      page.limit,
      page.offset,
    ]);
    return { events: rows.map(toEvent), total };
  }

  /** Events whose start has come and that have not gone live, locked for this transaction; other replicas skip them. */
  async claimDueEvents(tx: Tx, now: Date, limit: number): Promise<CommunityEvent[]> {
    const em = emOf(tx);
    const ids = await em.execute<{ id: number }[]>(
      `select "id" from "event" where "live_at" is null and "start_time" <= ? order by "start_time", "id" limit ? for update skip locked`,
      [now, limit],
    );
    if (ids.length === 0) return [];
    const rows = await em.execute<Row[]>(`${EVENT_SELECT} where e."id" in (?) order by e."start_time", e."id"`, [ids.map((r) => r.id)]);
    return rows.map(toEvent);
  }

  async markLive(tx: Tx, eventId: number, at: Date): Promise<void> {
    await emOf(tx).execute(`update "event" set "live_at" = ? where "id" = ?`, [at, eventId]);
  }
}

/** The rooms a viewer sees listed (as the room directories): PUBLIC listed ones and those where they hold a ranked role; all without `to`. */
function visibleRooms(to: Visibility | undefined): { sql: string; params: unknown[] } {
  if (!to) return { sql: 'true', params: [] };
  return {
    sql: `((r."type" = 'PUBLIC' and not r."unlisted") or exists (select 1 from "room_user_role" u where u."room_id" = r."id" and u."user_uuid" = ?
          and u."role" in (?) and (u."expiration_time" is null or u."expiration_time" > now())))`,
    params: [to.userUuid, to.roles],
  };
}
