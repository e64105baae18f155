import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { AssignmentType, Avatar, AvatarAssignment, AvatarInput, AvatarQuery, AvatarStatus, AvatarStore } from '../domain/avatars.js';
import { AvatarEntity } from './entities.js';
import type { AddedPoints } from './point-store.js';

interface AvatarRow {
  slug: string;
  name: string;
  status: AvatarStatus;
  discord_only: boolean;
  season_id: string | null;
  rank_threshold: number | null;
  created_at: Date;
  updated_at: Date;
}

interface AssignmentRow {
  id: string;
  avatar_slug: string;
  user_uuid: string;
  assignment_type: AssignmentType;
  season_id: string | null;
  created_at: Date;
}

const toAvatar = (row: AvatarRow): Avatar => ({
  slug: row.slug,
  name: row.name,
  status: row.status,
  discordOnly: row.discord_only,
  seasonId: row.season_id,
  rankThreshold: row.rank_threshold,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

const toAssignment = (row: AssignmentRow): AvatarAssignment => ({
  id: row.id,
  avatarSlug: row.avatar_slug,
  userUuid: row.user_uuid,
  assignmentType: row.assignment_type,
  seasonId: row.season_id,
  createdAt: new Date(row.created_at),
});

const COLUMNS = `a."slug", a."name", a."status", a."discord_only", a."season_id", a."rank_threshold", a."created_at", a."updated_at"`;

/** The users ranked within `threshold` in a season (the rank rule of ranking-store.ts), who do not have the avatar yet. */
const EARNED = `select r."user_uuid" from (
    select "user_uuid", row_number() over (order by "balance" desc, "updated_at" asc, "user_uuid" asc) as "rank"
    from "ranking_status" where "season_id" = ? and "balance" > 0) r
  where r."rank" <= ? and not exists (select 1 from "avatar_assignment" x where x."avatar_slug" = ? and x."user_uuid" = r."user_uuid")
  order by r."rank"`;

/**
 * Season awards as points are added, in their transaction: when the points
 * put the user within a SEASON_AWARD avatar's rank threshold in its season,
 * the user is assigned it (once; an award once earned stays).
 */
export async function awardSeasonAvatars(em: EntityManager, added: AddedPoints, now: Date): Promise<void> {
  const seasonId = added.point.seasonId;
  if (!seasonId || !added.rankingStatus || added.rankingStatus.balance <= 0) return;
  const awards = await em.execute<Array<{ slug: string; rank_threshold: number }>>(
    `select "slug", "rank_threshold" from "avatar" where "status" = 'SEASON_AWARD' and "season_id" = ?`,
    [seasonId],
  );
  if (awards.length === 0) return;
  const { balance, updatedAt, userUuid } = added.rankingStatus;
  const [ahead] = await em.execute<Array<{ n: string }>>(
    `select count(*) as "n" from "ranking_status" o where o."season_id" = ? and o."balance" > 0
      and (o."balance" > ? or (o."balance" = ? and (o."updated_at" < ? or (o."updated_at" = ? and o."user_uuid" < ?))))`,
    [seasonId, balance, balance, updatedAt, updatedAt, userUuid],
  );
  const rank = Number(ahead?.n ?? 0) + 1;
  for (const award of awards) {
    if (rank > award.rank_threshold) continue;
    await em.execute(
      `insert into "avatar_assignment" ("id", "avatar_slug", "user_uuid", "assignment_type", "season_id", "created_at")
       values (?, ?, ?, 'SEASON_AWARD', ?, ?) on conflict do nothing`,
      [randomUUID(), award.slug, userUuid, seasonId, now],
    );
  }
}

/** Avatars and assignments in PostgreSQL; the admin list through MikroORM (the crud query's filter). */
export class PgAvatarStore implements AvatarStore {
  constructor(private readonly orm: MikroORM) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  async create(input: AvatarInput, now: Date): Promise<Avatar | undefined> {
    const [row] = await this.em().execute<AvatarRow[]>(
      `insert into "avatar" as a ("slug", "name", "status", "discord_only", "season_id", "rank_threshold", "created_at", "updated_at")
       values (?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing returning ${COLUMNS}`,
      [input.slug, input.name, input.status, input.discordOnly, input.seasonId, input.rankThreshold, now, now],
    );
    return row ? toAvatar(row) : undefined;
  }

  async patch(slug: string, avatar: Partial<AvatarInput>, now: Date): Promise<Avatar | undefined> {
    const [row] = await this.em().execute<AvatarRow[]>(
      `update "avatar" as a set "name" = ?, "status" = ?, "discord_only" = ?, "season_id" = ?, "rank_threshold" = ?, "updated_at" = ?
        where a."slug" = ? returning ${COLUMNS}`,
      [avatar.name, avatar.status, avatar.discordOnly, avatar.seasonId ?? null, avatar.rankThreshold ?? null, now, slug],
    );
    return row ? toAvatar(row) : undefined;
  }

  async delete(slug: string): Promise<boolean> {
    const rows = await this.em().execute<unknown[]>(`delete from "avatar" where "slug" = ? returning "slug"`, [slug]);
    return rows.length > 0;
  }

  async find(slug: string): Promise<Avatar | undefined> {
    const [row] = await this.em().execute<AvatarRow[]>(`select ${COLUMNS} from "avatar" a where a."slug" = ?`, [slug]);
    return row ? toAvatar(row) : undefined;
  }

  async list(statuses: AvatarStatus[]): Promise<Avatar[]> {
    const rows = await this.em().execute<AvatarRow[]>(
      `select ${COLUMNS} from "avatar" a where a."status" in (${statuses.map(() => '?').join(', ')}) order by a."slug"`,
      statuses,
    );
    return rows.map(toAvatar);
  }

  async assignedTo(userUuid: string): Promise<Avatar[]> {
    const rows = await this.em().execute<AvatarRow[]>(
      `select ${COLUMNS} from "avatar" a join "avatar_assignment" x on x."avatar_slug" = a."slug" where x."user_uuid" = ? order by a."slug"`,
      [userUuid],
    );
    return rows.map(toAvatar);
  }

  async query(query: AvatarQuery): Promise<{ rows: Avatar[]; total: number }> {
    const orderBy: Record<string, 'asc' | 'desc'>[] = query.orderBy.map(({ field, order }) => ({ [field]: order }));
    if (!query.orderBy.some(({ field }) => field === 'slug')) orderBy.push({ slug: 'asc' });
    const [found, total] = await this.em()
      .createQueryBuilder(AvatarEntity)
      .where(query.where as never)
      .orderBy(orderBy as never)
      .limit(query.limit)
      .offset(query.offset)
      .getResultAndCount();
    return {
      rows: found.map(
        (avatar) => ({ ...avatar, seasonId: avatar.seasonId ?? null, rankThreshold: avatar.rankThreshold ?? null }) as Avatar,
      ),
      total,
    };
  }

  async assignment(slug: string, userUuid: string): Promise<AvatarAssignment | undefined> {
    const [row] = await this.em().execute<AssignmentRow[]>(
      `select * from "avatar_assignment" where "avatar_slug" = ? and "user_uuid" = ?`,
      [slug, userUuid],
    );
    return row ? toAssignment(row) : undefined;
  }

  async assign(slug: string, userUuid: string, type: AssignmentType, seasonId: string | null, now: Date) {
    const [row] = await this.em().execute<AssignmentRow[]>(
      `insert into "avatar_assignment" ("id", "avatar_slug", "user_uuid", "assignment_type", "season_id", "created_at")
       values (?, ?, ?, ?, ?, ?) on conflict do nothing returning *`,
      [randomUUID(), slug, userUuid, type, seasonId, now],
    );
    if (row) return { assignment: toAssignment(row), created: true };
    return { assignment: (await this.assignment(slug, userUuid))!, created: false };
  }

  async deleteAssignment(id: string): Promise<boolean> {
    const rows = await this.em().execute<unknown[]>(`delete from "avatar_assignment" where "id" = ? returning "id"`, [id]);
    return rows.length > 0;
  }

  async backfill(seasonId: string, limit: number, now: Date): Promise<{ assigned: number; done: boolean }> {
    return this.em().transactional(async (em) => {
      const awards = await em.execute<Array<{ slug: string; rank_threshold: number }>>(
        `select "slug", "rank_threshold" from "avatar" where "status" = 'SEASON_AWARD' and "season_id" = ? order by "slug"`,
        [seasonId],
      );
      let assigned = 0;
      for (const award of awards) {
        if (assigned >= limit) return { assigned, done: false };
        const rows = await em.execute<unknown[]>(
          `insert into "avatar_assignment" ("id", "avatar_slug", "user_uuid", "assignment_type", "season_id", "created_at")
           select gen_random_uuid(), ?, e."user_uuid", 'SEASON_AWARD', ?, ? from (${EARNED} limit ?) e
           on conflict do nothing returning "id"`,
          [award.slug, seasonId, now, seasonId, award.rank_threshold, award.slug, limit - assigned],
        );
        assigned += rows.length;
      }
      if (assigned < limit) return { assigned, done: true };
      // Exactly at the limit: done when nobody is left.
      for (const award of awards) {
        const left = await em.execute<unknown[]>(`${EARNED} limit 1`, [seasonId, award.rank_threshold, award.slug]);
        if (left.length > 0) return { assigned, done: false };
      }
      return { assigned, done: true };
    });
  }
}
