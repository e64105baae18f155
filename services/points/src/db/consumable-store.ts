import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Consumable, ConsumableInput, ConsumableOrder, ConsumableQuery, ConsumableStore, DisplayType } from '../domain/consumables.js';
import { shopFileUrl } from '../domain/shop-files.js';

interface ConsumableRow {
  id: string;
  name: string;
  description: string;
  token_cost: string;
  display_type: DisplayType;
  file_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `"id", "name", "description", "token_cost", "display_type", "file_id", "created_at", "updated_at"`;

const ORDER: Record<ConsumableOrder, string> = {
  createdAt: `"created_at" asc, "id" asc`,
  '-createdAt': `"created_at" desc, "id" desc`,
  tokenCost: `"token_cost" asc, "created_at" asc, "id" asc`,
  '-tokenCost': `"token_cost" desc, "created_at" desc, "id" desc`,
};

function toConsumable(row: ConsumableRow): Consumable {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    tokenCost: Number(row.token_cost),
    displayType: row.display_type,
    imageUrl: row.file_id ? shopFileUrl(row.file_id) : '',
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** Consumables in PostgreSQL; a deleted one keeps its row (`deleted_at`) for the purchases that name it. */
export class PgConsumableStore implements ConsumableStore {
  constructor(private readonly orm: MikroORM) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  async create(input: ConsumableInput, now: Date): Promise<Consumable> {
    const [row] = await this.em().execute<ConsumableRow[]>(
      `insert into "consumable" ("id", "name", "description", "token_cost", "display_type", "created_at", "updated_at")
         values (?, ?, ?, ?, ?, ?, ?) returning ${COLUMNS}`,
      [randomUUID(), input.name, input.description, input.tokenCost, input.displayType, now, now],
    );
    return toConsumable(row!);
  }

  async patch(id: string, changes: Partial<ConsumableInput>, now: Date): Promise<Consumable | undefined> {
    const [row] = await this.em().execute<ConsumableRow[]>(
      `update "consumable" set "name" = coalesce(?, "name"), "description" = coalesce(?, "description"),
         "token_cost" = coalesce(?, "token_cost"), "display_type" = coalesce(?, "display_type"), "updated_at" = ?
        where "id" = ? and "deleted_at" is null returning ${COLUMNS}`,
      [changes.name ?? null, changes.description ?? null, changes.tokenCost ?? null, changes.displayType ?? null, now, id],
    );
    return row ? toConsumable(row) : undefined;
  }

  async delete(id: string, now: Date): Promise<boolean> {
    const rows = await this.em().execute<Array<{ id: string }>>(
      `update "consumable" set "deleted_at" = ? where "id" = ? and "deleted_at" is null returning "id"`,
      [now, id],
    );
    return rows.length > 0;
  }

  async find(id: string): Promise<Consumable | undefined> {
    const [row] = await this.em().execute<ConsumableRow[]>(`select ${COLUMNS} from "consumable" where "id" = ? and "deleted_at" is null`, [
      id,
    ]);
    return row ? toConsumable(row) : undefined;
  }

  async list(query: ConsumableQuery): Promise<Consumable[]> {
    const where = [`"deleted_at" is null`];
    const params: unknown[] = [];
    if (query.ids.length > 0) {
      where.push(`"id" in (${query.ids.map(() => '?').join(', ')})`);
      params.push(...query.ids);
    }
    if (query.createdBefore) {
      where.push(`"created_at" < ?`);
      params.push(query.createdBefore);
    }
    const rows = await this.em().execute<ConsumableRow[]>(
      `select ${COLUMNS} from "consumable" where ${where.join(' and ')} order by ${ORDER[query.orderBy]} limit ? offset ?`,
      [...params, query.limit, query.offset],
    );
    return rows.map(toConsumable);
  }

  async count(): Promise<number> {
    const [row] = await this.em().execute<Array<{ total: string }>>(
      `select count(*) as "total" from "consumable" where "deleted_at" is null`,
    );
    return Number(row?.total ?? 0);
  }
}
