import { randomUUID } from 'node:crypto';
import { LockMode, UniqueConstraintViolationException, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import { addToOutbox, isUuid, type Logger, type Redis } from '@spinroom/platform';
import type { Room } from '../domain/room.js';
import type { NewRoom, RoomFavorite, RoomFilter, RoomRef, RoomStore, Tx, Visibility } from '../domain/room-store.js';
import { isActive, type RoomRole, type RoomRoleName } from '../domain/room-roles.js';
import { RoomEntity, RoomFavoriteEntity, RoomUserRoleEntity } from './entities.js';
import { RecentVisits } from './recent-visits.js';
import { RoomCache, type RoomRecord } from './room-cache.js';

/** A write in progress here: the transaction's entity manager (for the service's own SQL, e.g. the play log) and its outbox. */
export interface PgTx extends Tx {
  em: EntityManager;
  /** Rooms whose record or roles this transaction changed: their cached records go at its commit. */
  touched?: Set<number>;
}

/** Every Tx the rules hand back is one this store opened (write), so it carries its entity manager. */
const emOf = (tx: Tx) => (tx as PgTx).em;
/** Marks a room changed in `tx` (its cached record goes at the commit). */
const touch = (tx: Tx, ...roomIds: number[]) => {
  const pg = tx as PgTx;
  pg.touched ??= new Set();
  for (const id of roomIds) pg.touched.add(id);
};

const ACTIVE = `("expiration_time" is null or "expiration_time" > now())`;

/** Rooms, their roles, favourites and recent rooms in PostgreSQL. */
export class PgRoomStore implements RoomStore {
  /** Recent rooms, written behind the joins (recent-visits.ts). */
  private readonly recent: RecentVisits;
  /** Rooms and roles read from Redis, kept in step with the commits here (room-cache.ts); none without Redis. */
  private readonly cache: RoomCache | undefined;
  /** Room uuid -> id (never changes for a room). */
  private readonly ids = new Map<string, number>();

  constructor(
    private readonly orm: MikroORM,
    /** Called after a commit that staged events (wakes the outbox relay). */
    private readonly staged: () => void = () => undefined,
    logger?: Logger,
    redis?: Redis,
  ) {
    this.recent = new RecentVisits(() => this.fork(), logger);
    this.cache = redis ? new RoomCache(redis) : undefined;
  }

  /** Writes what waits to be written (the recent rooms): on a graceful stop. */
  async stop(): Promise<void> {
    await this.recent.stop();
  }

  fork(): EntityManager {
    return this.orm.em.fork();
  }

  /** Runs `fn` in one transaction; events it stages commit (or roll back) with its changes. */
  async write<T>(fn: (tx: PgTx) => Promise<T>): Promise<T> {
    let stagedAny = false;
    const touched = new Set<number>();
    const result = await this.fork().transactional((em) =>
      fn({
        em,
        touched,
        stage: (entry) => {
          stagedAny = true;
          addToOutbox(em, entry);
        },
      }),
    );
    await this.cache?.invalidate(touched);
    if (stagedAny) this.staged();
    return result;
  }

  /** Rooms with their unexpired roles, from Redis (read from here and kept there when not in it). */
  private records(roomIds: number[]): Promise<Map<number, RoomRecord>> {
    return this.cache!.get(roomIds, async (missing) => {
      const em = this.fork();
      const [rooms, roles] = await Promise.all([
        em.find(RoomEntity, { id: { $in: missing } }),
        em.find(
          RoomUserRoleEntity,
          { roomId: { $in: missing }, $or: [{ expirationTime: null }, { expirationTime: { $gt: new Date() } }] },
          { orderBy: { id: 'asc' } },
        ),
      ]);
      return new Map(
        rooms.map((room) => [
          room.id,
          { room: { ...room } as Room, roles: roles.filter((r) => r.roomId === room.id).map((r) => ({ ...r }) as RoomRole) },
        ]),
      );
    });
  }

  async find(ref: RoomRef, tx?: Tx, lock = false): Promise<Room | null> {
    // Outside a write, by uuid or id: from Redis.
    if (!tx && this.cache) {
      const id = 'id' in ref ? ref.id : 'uuid' in ref ? this.ids.get(ref.uuid) : undefined;
      if (id !== undefined) return (await this.records([id])).get(id)?.room ?? null;
    }
    const room = await this.findInDatabase(ref, tx, lock);
    if (room) this.rememberId(room);
    return room;
  }

  private rememberId(room: Room): void {
    if (this.ids.size >= 100_000) this.ids.clear();
    this.ids.set(room.uuid, room.id);
  }

  private async findInDatabase(ref: RoomRef, tx?: Tx, lock = false): Promise<Room | null> {
    const em = tx ? emOf(tx) : this.fork();
    const where =
      'uuid' in ref ? (isUuid(ref.uuid) ? { uuid: ref.uuid } : null) : 'slug' in ref ? { slug: ref.slug.toLowerCase() } : { id: ref.id };
    if (!where) return null;
    return (await em.findOne(RoomEntity, where, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {})) as Room | null;
  }

  /** Inserts a room; null when the slug is taken. */
  async insert(tx: Tx, room: NewRoom): Promise<Room | null> {
    const em = emOf(tx);
    const now = new Date();
    try {
      // A savepoint, so a slug clash leaves the surrounding transaction usable.
      return await em.transactional(async (inner) => {
        const entity = inner.create(RoomEntity, { ...room, uuid: randomUUID(), createdAt: now, updatedAt: now });
        await inner.flush();
        return entity as Room;
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return null;
      throw error;
    }
  }

  /** Slugs in use among `base` and `base-<n>`. */
  async slugsLike(base: string): Promise<Set<string>> {
    const rows = await this.fork().execute<{ slug: string }[]>(`select "slug" from "room" where "slug" = ? or "slug" like ?`, [
      base,
      `${base}-%`,
    ]);
    return new Set(rows.map((r) => r.slug));
  }

  /** Applies changes to a room read in this transaction; false when the new slug is taken. */
  async update(tx: Tx, room: Room, changes: Partial<Room>): Promise<boolean> {
    const em = emOf(tx);
    touch(tx, room.id);
    try {
      await em.transactional(async (inner) => {
        const entity = await inner.findOneOrFail(RoomEntity, { id: room.id });
        inner.assign(entity, { ...changes, updatedAt: new Date() });
        await inner.flush();
        Object.assign(room, entity);
      });
      return true;
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return false;
      throw error;
    }
  }

  async delete(tx: Tx, room: Room): Promise<void> {
    const em = emOf(tx);
    touch(tx, room.id);
    await em.nativeDelete(RoomEntity, { id: room.id });
  }

  /** Rooms matching a filter, with the total, in the listing's order. */
  async list(
    filter: RoomFilter,
    page: { limit: number; offset: number },
    hiddenOwners: readonly string[] = [],
  ): Promise<{ rooms: Room[]; total: number }> {
    if (filter.kind === 'recent') await this.recent.flushFor(filter.userUuid);
    const listing = listingSql(filter);
    const { from, order } = listing;
    const where =
      hiddenOwners.length === 0
        ? listing.where
        : `(${listing.where}) and not exists (select 1 from "room_user_role" o where o."room_id" = r."id" and o."role" = 'owner' and o."user_uuid" in (?))`;
    const params = hiddenOwners.length === 0 ? listing.params : [...listing.params, [...hiddenOwners]];
    const em = this.fork();
    const [{ total }] = (await em.execute<{ total: number }[]>(`select count(*)::int as "total" ${from} where ${where}`, params)) as [
      { total: number },
    ];
    const ids = await em.execute<{ id: number }[]>(`select r."id" ${from} where ${where} order by ${order} limit ? offset ?`, [
      ...params,
      page.limit,
      page.offset,
    ]);
    return {
      rooms: await this.byIds(
        ids.map((r) => r.id),
        em,
      ),
      total,
    };
  }

  /** Rooms by slug or uuid, in the order asked, unknown ones left out. */
  async named(refs: string[]): Promise<Room[]> {
    if (refs.length === 0) return [];
    const lower = refs.map((r) => r.toLowerCase());
    const uuids = lower.filter(isUuid);
    const found = (await this.fork().find(RoomEntity, {
      $or: [{ slug: { $in: lower } }, ...(uuids.length ? [{ uuid: { $in: uuids } }] : [])],
    })) as Room[];
    const byKey = new Map(found.flatMap((r) => [[r.slug, r] as const, [r.uuid, r] as const]));
    return [...new Set(lower.map((k) => byKey.get(k)).filter((r): r is Room => r !== undefined))];
  }

  async countPrivate(): Promise<number> {
    return this.fork().count(RoomEntity, { type: 'PRIVATE' });
  }

  private async byIds(ids: number[], em: EntityManager): Promise<Room[]> {
    if (ids.length === 0) return [];
    const rooms = (await em.find(RoomEntity, { id: { $in: ids } })) as Room[];
    const byId = new Map(rooms.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id)!).filter(Boolean);
  }

  /** Unexpired roles of some rooms (optionally of one user), oldest first. */
  async activeRoles(roomIds: number[], userUuid?: string, tx?: Tx): Promise<RoomRole[]> {
    if (roomIds.length === 0 || (userUuid !== undefined && !isUuid(userUuid))) return [];
    if (!tx && this.cache) {
      const now = new Date();
      return [...(await this.records(roomIds)).values()]
        .flatMap((r) => r.roles)
        .filter((r) => (userUuid === undefined || r.userUuid === userUuid) && isActive(r, now))
        .sort((a, b) => a.id - b.id);
    }
    const em = tx ? emOf(tx) : this.fork();
    const rows = await em.find(
      RoomUserRoleEntity,
      {
        roomId: { $in: roomIds },
        ...(userUuid ? { userUuid } : {}),
        $or: [{ expirationTime: null }, { expirationTime: { $gt: new Date() } }],
      },
      { orderBy: { id: 'asc' } },
    );
    return rows as RoomRole[];
  }

  /** Grants a role, or renews it with the new expiration when the user already holds it (expired or not). */
  async upsertRole(tx: Tx, roomId: number, userUuid: string, role: RoomRoleName, expirationTime: Date | null): Promise<RoomRole> {
    const em = emOf(tx);
    touch(tx, roomId);
    const now = new Date();
    const [row] = await em.execute<Record<string, unknown>[]>(
      `insert into "room_user_role" ("room_id", "user_uuid", "role", "expiration_time", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?)
       on conflict ("room_id", "user_uuid", "role") do update set "expiration_time" = excluded."expiration_time", "updated_at" = excluded."updated_at"
       returning "id", "created_at"`,
      [roomId, userUuid, role, expirationTime, now, now],
    );
    return { id: Number(row!.id), roomId, userUuid, role, expirationTime, createdAt: new Date(row!.created_at as string), updatedAt: now };
  }

  /** Removes a role; answers whether an unexpired one was removed. */
  async deleteRole(tx: Tx, roomId: number, userUuid: string, role: RoomRoleName): Promise<boolean> {
    const em = emOf(tx);
    touch(tx, roomId);
    const rows = await em.execute<{ active: boolean }[]>(
      `delete from "room_user_role" where "room_id" = ? and "user_uuid" = ? and "role" = ? returning ${ACTIVE} as "active"`,
      [roomId, userUuid, role],
    );
    return rows.some((r) => r.active);
  }

  async ownerOf(roomIds: number[], tx?: Tx): Promise<Map<number, string>> {
    if (roomIds.length === 0) return new Map();
    if (!tx && this.cache) {
      const owners = [...(await this.records(roomIds)).values()].flatMap((r) => r.roles).filter((r) => r.role === 'owner');
      return new Map(owners.map((r) => [r.roomId, r.userUuid]));
    }
    const em = tx ? emOf(tx) : this.fork();
    const rows = await em.find(RoomUserRoleEntity, { roomId: { $in: roomIds }, role: 'owner' });
    return new Map(rows.map((r) => [r.roomId, r.userUuid]));
  }

  /** Deletes a user's roles of the given kinds in every room; answers the rooms whose roles went. */
  async deleteRolesOfUser(
    tx: Tx,
    userUuid: string,
    roles: RoomRoleName[],
  ): Promise<Array<{ roomId: number; roomUuid: string; role: RoomRoleName }>> {
    const em = emOf(tx);
    const deleted = await em.execute<Array<{ roomId: number; roomUuid: string; role: RoomRoleName }>>(
      `delete from "room_user_role" u using "room" r where r."id" = u."room_id" and u."user_uuid" = ? and u."role" in (?) and ${ACTIVE.replaceAll('"expiration_time"', 'u."expiration_time"')}
       returning u."room_id" as "roomId", r."uuid" as "roomUuid", u."role"`,
      [userUuid, roles],
    );
    touch(tx, ...deleted.map((d) => Number(d.roomId)));
    return deleted;
  }

  /** Forgets a user's favourites, recent rooms and (expired or not) roles of the given kinds. */
  async forgetUser(userUuid: string, roles: RoomRoleName[]): Promise<void> {
    this.recent.forget(userUuid);
    const rooms = await this.fork().transactional(async (em) => {
      const deleted = await em.execute<Array<{ room_id: number }>>(
        `delete from "room_user_role" where "user_uuid" = ? and "role" in (?) returning "room_id"`,
        [userUuid, roles],
      );
      await em.execute(`delete from "room_favorite" where "user_uuid" = ?`, [userUuid]);
      await em.execute(`delete from "recent_room" where "user_uuid" = ?`, [userUuid]);
      return deleted.map((d) => Number(d.room_id));
    });
    await this.cache?.invalidate(rooms);
  }

  /** Records a visit; keeps the user's `keep` most recent rooms. Written behind (recent-visits.ts): no wait on the database. */
  async recordRecent(userUuid: string, roomId: number, keep: number): Promise<void> {
    this.recent.record(userUuid, roomId, keep);
    return Promise.resolve();
  }

  /** Adds a favourite (or answers the existing one). */
  async addFavorite(userUuid: string, roomId: number): Promise<RoomFavorite> {
    const em = this.fork();
    await em.execute(
      `insert into "room_favorite" ("user_uuid", "room_id", "created_at") values (?, ?, ?) on conflict ("user_uuid", "room_id") do nothing`,
      [userUuid, roomId, new Date()],
    );
    return await em.findOneOrFail(RoomFavoriteEntity, { userUuid, roomId });
  }

  async favorites(userUuid: string, options: { limit: number; roomIds?: number[] }): Promise<RoomFavorite[]> {
    if (!isUuid(userUuid)) return [];
    return await this.fork().find(
      RoomFavoriteEntity,
      { userUuid, ...(options.roomIds ? { roomId: { $in: options.roomIds } } : {}) },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: options.limit },
    );
  }

  async favoriteById(id: number): Promise<RoomFavorite | null> {
    return await this.fork().findOne(RoomFavoriteEntity, { id });
  }

  async removeFavorite(id: number): Promise<void> {
    await this.fork().nativeDelete(RoomFavoriteEntity, { id });
  }

  async byInternalIds(ids: number[]): Promise<Room[]> {
    return this.byIds(ids, this.fork());
  }
}

function listingSql(filter: RoomFilter): { from: string; where: string; params: unknown[]; order: string } {
  const newest = `r."created_at" desc, r."id" desc`;
  const listed = `r."type" = 'PUBLIC' and not r."unlisted"`;
  const visible = (to: Visibility | undefined) =>
    !to
      ? { sql: 'true', params: [] as unknown[] }
      : {
          sql: `(${listed} or exists (select 1 from "room_user_role" u where u."room_id" = r."id" and u."user_uuid" = ? and u."role" in (?)
                and (u."expiration_time" is null or u."expiration_time" > now())))`,
          params: [to.userUuid, to.roles] as unknown[],
        };
  switch (filter.kind) {
    case 'public':
      return { from: `from "room" r`, where: listed, params: [], order: newest };
    case 'promoted':
      return filter.providers.length === 0
        ? { from: `from "room" r`, where: `r."promoted"`, params: [], order: newest }
        : {
            from: `from "room" r`,
            where: `r."promoted" and exists (select 1 from jsonb_array_elements_text(r."promoted_providers") p where p in (?))`,
            params: [filter.providers],
            order: newest,
          };
    case 'withRole':
      return {
        from: `from "room" r`,
        where: `exists (select 1 from "room_user_role" u where u."room_id" = r."id" and u."user_uuid" = ? and u."role" in (?)
                and (u."expiration_time" is null or u."expiration_time" > now()))`,
        params: [filter.userUuid, filter.roles],
        order: newest,
      };
    case 'all': {
      const shown = visible(filter.visibleTo);
      return { from: `from "room" r`, where: shown.sql, params: shown.params, order: `r."id" asc` };
    }
    case 'discordGuild': {
      const shown = visible(filter.visibleTo);
      return {
        from: `from "room" r`,
        where: `r."discord_guild_id" = ? and ${shown.sql}`,
        params: [filter.guildId, ...shown.params],
        order: newest,
      };
    }
    case 'favorites':
      return {
        from: `from "room" r join "room_favorite" f on f."room_id" = r."id"`,
        where: `f."user_uuid" = ?${filter.includePrivate ? '' : ` and r."type" = 'PUBLIC'`}`,
        params: [filter.userUuid],
        order: `f."created_at" desc, f."id" desc`,
      };
    case 'recent':
      return {
        from: `from "room" r join "recent_room" v on v."room_id" = r."id"`,
        where: `v."user_uuid" = ?`,
        params: [filter.userUuid],
        order: `v."visited_at" desc`,
      };
    case 'community': {
      const shown = visible(filter.visibleTo);
      return {
        from: `from "room" r join "community_room" cr on cr."room_id" = r."id"`,
        where: `cr."community_id" = ? and ${shown.sql}`,
        params: [filter.communityId, ...shown.params],
        order: `cr."added_at" desc, r."id" desc`,
      };
    }
  }
}
