import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { RankedStatus, RankingPage, RankingStore, StatusQuery } from '../domain/rankings.js';
import { addPoints, type AddedPoints, type PointEntry } from './point-store.js';

interface RankedRow {
  id: string;
  user_uuid: string;
  season_id: string | null;
  season_name: string | null;
  balance: string;
  rank: string;
  created_at: Date;
  updated_at: Date;
}

const toRanked = (row: RankedRow): RankedStatus => ({
  id: row.id,
  userUuid: row.user_uuid,
  seasonId: row.season_id,
  seasonName: row.season_name,
  balance: Number(row.balance),
  rank: Number(row.rank),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

/**
 * The rank of row `r` among the rows of its table (and season): 1 + those
 * ahead of it, the highest balance first and ties to whoever reached it
 * first (the earlier last change), then by user uuid; 0 without points.
 */
function rankOf(table: string, sameSeason: boolean): string {
  return `case when r."balance" <= 0 then 0 else 1 + (select count(*) from "${table}" o where o."balance" > 0
    ${sameSeason ? `and o."season_id" = r."season_id"` : ''}
    and (o."balance" > r."balance" or (o."balance" = r."balance" and (o."updated_at" < r."updated_at"
      or (o."updated_at" = r."updated_at" and o."user_uuid" < r."user_uuid"))))) end`;
}

const ORDER = `r."balance" desc, r."updated_at" asc, r."user_uuid" asc`;
const SEASON_SELECT = `select r."id", r."user_uuid", r."season_id", s."name" as "season_name", r."balance", r."created_at", r."updated_at"`;
const SEASON_FROM = `from "ranking_status" r join "season" s on s."id" = r."season_id"`;
const LIFETIME_SELECT = `select r."id", r."user_uuid", null as "season_id", null as "season_name", r."balance", r."created_at", r."updated_at"`;
const LIFETIME_FROM = `from "ranking_status_lifetime" r`;

/** Ranking statuses in PostgreSQL: read with their ranks; written through addPoints in one transaction. */
export class PgRankingStore implements RankingStore {
  constructor(private readonly orm: MikroORM) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  add(entry: PointEntry, now: Date, after?: (em: EntityManager, added: AddedPoints) => Promise<void>): Promise<AddedPoints> {
    return this.em().transactional(async (em) => {
      const added = await addPoints(em, entry, now);
      if (added.added) await after?.(em, added);
      return added;
    });
  }

  async userStatuses(userUuid: string): Promise<RankedStatus[]> {
    const rows = await this.em().execute<RankedRow[]>(
      `${SEASON_SELECT}, ${rankOf('ranking_status', true)} as "rank" ${SEASON_FROM} where r."user_uuid" = ? order by s."start" desc`,
      [userUuid],
    );
    return rows.map(toRanked);
  }

  async seasonStatus(userUuid: string, seasonId: string): Promise<RankedStatus | undefined> {
    const [row] = await this.em().execute<RankedRow[]>(
      `${SEASON_SELECT}, ${rankOf('ranking_status', true)} as "rank" ${SEASON_FROM} where r."user_uuid" = ? and r."season_id" = ?`,
      [userUuid, seasonId],
    );
    return row ? toRanked(row) : undefined;
  }

  async lifetimeStatus(userUuid: string): Promise<RankedStatus | undefined> {
    const [row] = await this.em().execute<RankedRow[]>(
      `${LIFETIME_SELECT}, ${rankOf('ranking_status_lifetime', false)} as "rank" ${LIFETIME_FROM} where r."user_uuid" = ?`,
      [userUuid],
    );
    return row ? toRanked(row) : undefined;
  }

  async seasonRanking(seasonId: string, page: { take: number; skip: number }): Promise<RankingPage> {
    const em = this.em();
    const rows = await em.execute<RankedRow[]>(
      `${SEASON_SELECT}, row_number() over (order by ${ORDER}) as "rank" ${SEASON_FROM}
        where r."season_id" = ? and r."balance" > 0 order by ${ORDER} limit ? offset ?`,
      [seasonId, page.take, page.skip],
    );
    const [count] = await em.execute<Array<{ total: string }>>(
      `select count(*) as "total" from "ranking_status" where "season_id" = ? and "balance" > 0`,
      [seasonId],
    );
    return { rankings: rows.map(toRanked), total: Number(count?.total ?? 0) };
  }

  async lifetimeRanking(page: { take: number; skip: number }): Promise<RankingPage> {
    const em = this.em();
    const rows = await em.execute<RankedRow[]>(
      `${LIFETIME_SELECT}, row_number() over (order by ${ORDER}) as "rank" ${LIFETIME_FROM}
        where r."balance" > 0 order by ${ORDER} limit ? offset ?`,
      [page.take, page.skip],
    );
    const [count] = await em.execute<Array<{ total: string }>>(
      `select count(*) as "total" from "ranking_status_lifetime" where "balance" > 0`,
    );
    return { rankings: rows.map(toRanked), total: Number(count?.total ?? 0) };
  }

  async list(query: StatusQuery): Promise<{ statuses: RankedStatus[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.userUuid) {
      where.push(`r."user_uuid" = ?`);
      params.push(query.userUuid);
    }
    if (!query.lifetime && query.seasonId) {
      where.push(`r."season_id" = ?`);
      params.push(query.seasonId);
    }
    const filter = where.length > 0 ? `where ${where.join(' and ')}` : '';
    const em = this.em();
    const [select, from, rank, order] = query.lifetime
      ? [LIFETIME_SELECT, LIFETIME_FROM, rankOf('ranking_status_lifetime', false), ORDER]
      : [SEASON_SELECT, SEASON_FROM, rankOf('ranking_status', true), `s."start" desc, ${ORDER}`];
    const rows = await em.execute<RankedRow[]>(`${select}, ${rank} as "rank" ${from} ${filter} order by ${order} limit ? offset ?`, [
      ...params,
      query.take,
      query.skip,
    ]);
    const [count] = await em.execute<Array<{ total: string }>>(`select count(*) as "total" ${from} ${filter}`, params);
    return { statuses: rows.map(toRanked), total: Number(count?.total ?? 0) };
  }

  async find(id: string, lifetime: boolean): Promise<RankedStatus | undefined> {
    const [row] = await this.em().execute<RankedRow[]>(
      lifetime
        ? `${LIFETIME_SELECT}, ${rankOf('ranking_status_lifetime', false)} as "rank" ${LIFETIME_FROM} where r."id" = ?`
        : `${SEASON_SELECT}, ${rankOf('ranking_status', true)} as "rank" ${SEASON_FROM} where r."id" = ?`,
      [id],
    );
    return row ? toRanked(row) : undefined;
  }
}
