import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Season, SeasonConflict, SeasonInput, SeasonStore } from '../domain/seasons.js';

interface SeasonRow {
  id: string;
  name: string;
  start: Date;
  end: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A season's end is the next season's start. */
const END = `(select min(n."start") from "season" n where n."start" > s."start")`;
const COLUMNS = `s."id", s."name", s."start", ${END} as "end", s."created_at", s."updated_at"`;
/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';
/** PostgreSQL's foreign_key_violation. */
const FOREIGN_KEY_VIOLATION = '23503';

export function toSeason(row: SeasonRow): Season {
  return {
    id: row.id,
    name: row.name,
    start: new Date(row.start),
    end: row.end ? new Date(row.end) : null,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** Which unique rule a write broke, if it broke one. */
function conflictOf(error: unknown): SeasonConflict | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error) || error.code !== UNIQUE_VIOLATION) return undefined;
  return 'constraint' in error && error.constraint === 'season_name_unique' ? 'name' : 'start';
}

/** Seasons in PostgreSQL: the end of each is read from the next one's start. */
export class PgSeasonStore implements SeasonStore {
  constructor(private readonly orm: MikroORM) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  private async one(where: string, params: unknown[], order = ''): Promise<Season | undefined> {
    const [row] = await this.em().execute<SeasonRow[]>(`select ${COLUMNS} from "season" s where ${where} ${order} limit 1`, params);
    return row ? toSeason(row) : undefined;
  }

  async create(input: SeasonInput, now: Date): Promise<Season | SeasonConflict> {
    const id = randomUUID();
    try {
      await this.em().execute(`insert into "season" ("id", "name", "start", "created_at", "updated_at") values (?, ?, ?, ?, ?)`, [
        id,
        input.name,
        input.start,
        now,
        now,
      ]);
    } catch (error) {
      const why = conflictOf(error);
      if (why) return why;
      throw error;
    }
    return (await this.find(id))!;
  }

  async patch(id: string, changes: Partial<SeasonInput>, now: Date): Promise<Season | SeasonConflict | undefined> {
    try {
      const rows = await this.em().execute<Array<{ id: string }>>(
        `update "season" set "name" = coalesce(?, "name"), "start" = coalesce(?, "start"), "updated_at" = ? where "id" = ? returning "id"`,
        [changes.name ?? null, changes.start ?? null, now, id],
      );
      if (rows.length === 0) return undefined;
    } catch (error) {
      const why = conflictOf(error);
      if (why) return why;
      throw error;
    }
    return this.find(id);
  }

  async delete(id: string): Promise<boolean | 'points'> {
    try {
      const rows = await this.em().execute<Array<{ id: string }>>(`delete from "season" where "id" = ? returning "id"`, [id]);
      return rows.length > 0;
    } catch (error) {
      // Point rows and ranking statuses name it.
      if (typeof error === 'object' && error !== null && 'code' in error && error.code === FOREIGN_KEY_VIOLATION) return 'points';
      throw error;
    }
  }

  find(id: string): Promise<Season | undefined> {
    return this.one(`s."id" = ?`, [id]);
  }

  findByName(name: string): Promise<Season | undefined> {
    return this.one(`s."name" = ?`, [name]);
  }

  at(at: Date): Promise<Season | undefined> {
    return this.one(`s."start" <= ?`, [at], `order by s."start" desc`);
  }

  adjacent(from: Date, next: boolean): Promise<Season | undefined> {
    return next
      ? this.one(`s."start" > ?`, [from], `order by s."start" asc`)
      : this.one(`s."start" < ?`, [from], `order by s."start" desc`);
  }

  async list(page: { offset: number; limit: number }): Promise<{ seasons: Season[]; total: number }> {
    const em = this.em();
    const rows = await em.execute<SeasonRow[]>(`select ${COLUMNS} from "season" s order by s."start" desc limit ? offset ?`, [
      page.limit,
      page.offset,
    ]);
    const [count] = await em.execute<Array<{ total: string }>>(`select count(*) as "total" from "season"`);
    return { seasons: rows.map(toSeason), total: Number(count?.total ?? 0) };
  }
}
