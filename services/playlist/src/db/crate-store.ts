import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { SPECIAL_CRATE_NAMES, type Crate, type SpecialCrateKind } from '../domain/crate.js';
import type { Song } from '../domain/song.js';
import { CrateEntity, SongEntity } from './entities.js';
import { shortId } from './short-id.js';

export interface CrateEntry {
  id: number;
  crateSongUuid: string;
  position: number;
  song: Song;
}

interface CrateRow {
  id: number;
  crateUuid: string;
  crateShortId: string;
  crateName: string;
  description: string;
  userUuid: string;
  isPublic: boolean;
  special?: SpecialCrateKind | null;
  currentPosition: number;
  importStatus: Crate['importStatus'];
  createdAt: Date;
  updatedAt: Date;
}

/** Crates and their entries. Every edit of a crate's entries locks the crate row first, so positions stay dense. */
export class PgCrateStore {
  constructor(private readonly orm: MikroORM) {}

  fork(): EntityManager {
    return this.orm.em.fork();
  }

  async byUuid(crateUuid: string, em: EntityManager = this.fork()): Promise<Crate | null> {
    if (!/^[0-9a-f-]{36}$/i.test(crateUuid)) return null;
    const crate = await em.findOne(CrateEntity, { crateUuid });
    return crate ? this.withCount(em, crate) : null;
  }

  /** The user's queue or likes crate, made on first use. */
  async special(userUuid: string, kind: SpecialCrateKind, em: EntityManager = this.fork()): Promise<Crate> {
    const now = new Date();
    await em.execute(
      `insert into "crate" ("crate_uuid", "crate_short_id", "user_uuid", "crate_name", "description", "is_public", "special", "current_position", "import_status", "created_at", "updated_at")
       values (?, ?, ?, ?, '', false, ?, 0, 'COMPLETE', ?, ?) on conflict ("user_uuid", "special") where "special" is not null do nothing`,
      [randomUUID(), shortId(), userUuid, SPECIAL_CRATE_NAMES[kind], kind, now, now],
    );
    const crate = await em.findOneOrFail(CrateEntity, { userUuid, special: kind });
    return this.withCount(em, crate);
  }

  async byShortId(crateShortId: string): Promise<Crate | null> {
    const em = this.fork();
    const crate = await em.findOne(CrateEntity, { crateShortId });
    return crate ? this.withCount(em, crate) : null;
  }

  /** Every public crate, newest first (the SEO service's listing). */
  async listPublic(options: { limit: number; offset: number }) {
    return this.list({ isPublic: true }, options);
  }

  /**
   * Public crates with songs, for people to play from or copy. `query` (lowercased)
   * matches the name or description anywhere (the trigram index on both serves it);
   * names equal to it, then names starting with it, come first; then the most
   * songs, then the newest.
   */
  async browsePublic(query: string, options: { limit: number; offset: number }) {
    const em = this.fork();
    const q = query.trim().toLowerCase();
    const where = `c."is_public" and c."special" is null and exists (select 1 from "crate_song" cs where cs."crate_id" = c."id")
      ${q ? `and lower(c."crate_name" || ' ' || c."description") like ?` : ''}`;
    const whereParams = q ? [`%${escapeLike(q)}%`] : [];
    const [{ total }] = (await em.execute<{ total: number }[]>(
      `select count(*)::int as "total" from "crate" c where ${where}`,
      whereParams,
    )) as [{ total: number }];
    const rows = await em.execute<{ id: number }[]>(
      `select c."id" from "crate" c where ${where}
       order by case when lower(c."crate_name") = ? then 0 when lower(c."crate_name") like ? then 1 else 2 end,
         (select count(*) from "crate_song" cs where cs."crate_id" = c."id") desc, c."created_at" desc, c."id" desc
       limit ? offset ?`,
      [...whereParams, q, `${escapeLike(q)}%`, options.limit, options.offset],
    );
    const ids = rows.map((r) => r.id);
    const entities = ids.length > 0 ? await em.find(CrateEntity, { id: { $in: ids } }) : [];
    const byId = new Map(entities.map((c) => [c.id, c]));
    const counts = await this.counts(em, ids);
    const crates = ids.flatMap((id) => {
      const c = byId.get(id);
      return c ? [{ ...toRow(c), songCount: counts.get(id) ?? 0 }] : [];
    });
    return { crates, total };
  }

  async listByUser(userUuid: string, options: { publicOnly: boolean; limit: number; offset: number }) {
    return this.list(options.publicOnly ? { userUuid, isPublic: true } : { userUuid }, options);
  }

  private async list(where: { userUuid?: string; isPublic?: boolean }, options: { limit: number; offset: number }) {
    const em = this.fork();
    const [crates, total] = await em.findAndCount(CrateEntity, where, {
      // Special crates first (queue, then likes), then the newest.
      orderBy: [{ special: 'desc nulls last' }, { createdAt: 'desc' }, { id: 'desc' }],
      limit: options.limit,
      offset: options.offset,
    });
    const counts = await this.counts(
      em,
      crates.map((c) => c.id),
    );
    return { crates: crates.map((c) => ({ ...toRow(c), songCount: counts.get(c.id) ?? 0 })), total };
  }

  async namesOf(em: EntityManager, userUuid: string): Promise<string[]> {
    const rows = await em.find(CrateEntity, { userUuid }, { fields: ['crateName'] });
    return rows.map((r) => r.crateName);
  }

  async insert(em: EntityManager, crate: Omit<CrateRow, 'id' | 'crateUuid' | 'crateShortId' | 'createdAt' | 'updatedAt'>): Promise<Crate> {
    const now = new Date();
    const entity = em.create(CrateEntity, { ...crate, crateUuid: randomUUID(), crateShortId: shortId(), createdAt: now, updatedAt: now });
    await em.flush();
    return { ...toRow(entity), songCount: 0 };
  }

  async update(crate: Crate, changes: Partial<Pick<Crate, 'crateName' | 'description' | 'isPublic' | 'currentPosition'>>): Promise<Crate> {
    const em = this.fork();
    const entity = await em.findOneOrFail(CrateEntity, { id: crate.id });
    em.assign(entity, { ...changes, updatedAt: new Date() });
    await em.flush();
    return this.withCount(em, entity);
  }

  async delete(crate: Crate): Promise<void> {
    await this.fork().nativeDelete(CrateEntity, { id: crate.id });
  }

  /** Runs `fn` in a transaction holding the crate's row lock. */
  async locked<T>(crate: Crate, fn: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.fork().transactional(async (em) => {
      await em.execute(`select 1 from "crate" where "id" = ? for update`, [crate.id]);
      return fn(em);
    });
  }

  /** Records a room effect as applied (`room_effect`): false when it already was (a replay). */
  async claimEffect(em: EntityManager, key: string): Promise<boolean> {
    const rows = await em.execute<unknown[]>(
      `insert into "room_effect" ("key") values (?) on conflict ("key") do nothing returning "key"`,
      [key],
    );
    return rows.length > 0;
  }

  /**
   * Forgets up to `limit` room effects applied before `before`, oldest first
   * (replicas pruning side by side skip each other's rows); how many it forgot.
   */
  async pruneEffects(before: Date, limit: number): Promise<number> {
    const rows = await this.fork().execute<unknown[]>(
      `delete from "room_effect" where "key" in (
         select "key" from "room_effect" where "applied_at" < ? order by "applied_at" limit ? for update skip locked)
       returning "key"`,
      [before, limit],
    );
    return rows.length;
  }

  async entries(em: EntityManager, crateId: number, page?: { limit: number; offset: number }): Promise<CrateEntry[]> {
    const rows = await em.execute<{ id: number; crate_song_uuid: string; position: number; song_pk: number }[]>(
      `select "id", "crate_song_uuid", "position", "song_id" as "song_pk" from "crate_song" where "crate_id" = ? order by "position"
       ${page ? 'limit ? offset ?' : ''}`,
      page ? [crateId, page.limit, page.offset] : [crateId],
    );
    if (rows.length === 0) return [];
    const songs = await em.find(SongEntity, { id: { $in: [...new Set(rows.map((r) => r.song_pk))] } });
    const byId = new Map(songs.map((s) => [s.id, s as Song]));
    return rows.map((r) => ({ id: r.id, crateSongUuid: r.crate_song_uuid, position: r.position, song: byId.get(r.song_pk)! }));
  }

  /** Inserts songs at the end, or at the top (shifting the rest down). */
  async insertEntries(em: EntityManager, crateId: number, songIds: number[], append: boolean): Promise<string[]> {
    if (songIds.length === 0) return [];
    const [{ n }] = (await em.execute<{ n: number }[]>(`select count(*)::int as n from "crate_song" where "crate_id" = ?`, [crateId])) as [
      { n: number },
    ];
    if (!append) await em.execute(`update "crate_song" set "position" = "position" + ? where "crate_id" = ?`, [songIds.length, crateId]);
    const start = append ? n : 0;
    const uuids = songIds.map(() => randomUUID());
    const values = songIds.map(() => '(?, ?, ?, ?)').join(', ');
    await em.execute(
      `insert into "crate_song" ("crate_song_uuid", "crate_id", "song_id", "position") values ${values}`,
      songIds.flatMap((songId, i) => [uuids[i], crateId, songId, start + i]),
    );
    return uuids;
  }

  async removeEntry(em: EntityManager, crateId: number, crateSongUuid: string): Promise<boolean> {
    const removed = await em.execute<{ position: number }[]>(
      `delete from "crate_song" where "crate_id" = ? and "crate_song_uuid" = ? returning "position"`,
      [crateId, crateSongUuid],
    );
    if (removed.length === 0) return false;
    await em.execute(`update "crate_song" set "position" = "position" - 1 where "crate_id" = ? and "position" > ?`, [
      crateId,
      removed[0]!.position,
    ]);
    return true;
  }

  /** Rewrites the positions of every entry to follow `orderedIds` (entry ids, dense from 0). */
  async setOrder(em: EntityManager, crateId: number, orderedIds: number[]): Promise<void> {
    if (orderedIds.length === 0) return;
    const values = orderedIds.map(() => '(?::int, ?::int)').join(', ');
    await em.execute(
      `update "crate_song" cs set "position" = v.pos from (values ${values}) as v(id, pos) where cs."id" = v.id and cs."crate_id" = ? and cs."position" <> v.pos`,
      [...orderedIds.flatMap((id, i) => [id, i]), crateId],
    );
  }

  async clear(em: EntityManager, crateId: number): Promise<void> {
    await em.execute(`delete from "crate_song" where "crate_id" = ?`, [crateId]);
    await em.execute(`update "crate" set "current_position" = 0, "updated_at" = now() where "id" = ?`, [crateId]);
  }

  async touch(em: EntityManager, crateId: number): Promise<void> {
    await em.execute(`update "crate" set "updated_at" = now() where "id" = ?`, [crateId]);
  }

  private async withCount(em: EntityManager, crate: CrateRow): Promise<Crate> {
    const counts = await this.counts(em, [crate.id]);
    return { ...toRow(crate), songCount: counts.get(crate.id) ?? 0 };
  }

  private async counts(em: EntityManager, crateIds: number[]): Promise<Map<number, number>> {
    if (crateIds.length === 0) return new Map();
    const rows = await em.execute<{ crate_id: number; n: number }[]>(
      `select "crate_id", count(*)::int as n from "crate_song" where "crate_id" in (?) group by "crate_id"`,
      [crateIds],
    );
    return new Map(rows.map((r) => [r.crate_id, r.n]));
  }
}

function toRow(c: CrateRow): Omit<Crate, 'songCount'> {
  return {
    id: c.id,
    crateUuid: c.crateUuid,
    crateShortId: c.crateShortId,
    crateName: c.crateName,
    description: c.description,
    userUuid: c.userUuid,
    isPublic: c.isPublic,
    special: c.special ?? null,
    currentPosition: c.currentPosition,
    importStatus: c.importStatus,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
