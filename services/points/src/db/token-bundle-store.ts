import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { TokenBundle, TokenBundleInput, TokenBundleQuery, TokenBundleStore } from '../domain/token-bundles.js';

export interface BundleRow {
  id: string;
  name: string;
  product_id: string;
  tokens: string;
  thumbnail_url: string;
  created_at: Date;
  updated_at: Date;
}

export const BUNDLE_COLUMNS = `"id", "name", "product_id", "tokens", "thumbnail_url", "created_at", "updated_at"`;
/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

export function toBundle(row: BundleRow): TokenBundle {
  return {
    id: row.id,
    name: row.name,
    productId: row.product_id,
    tokens: Number(row.tokens),
    thumbnailUrl: row.thumbnail_url,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === UNIQUE_VIOLATION;
}

/** Token bundles in PostgreSQL; a deleted one keeps its row (`deleted_at`), and a live productId is unique. */
export class PgTokenBundleStore implements TokenBundleStore {
  constructor(private readonly orm: MikroORM) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  async create(input: TokenBundleInput, now: Date): Promise<TokenBundle | undefined> {
    const [row] = await this.em().execute<BundleRow[]>(
      `insert into "token_bundle" ("id", "name", "product_id", "tokens", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?)
         on conflict do nothing returning ${BUNDLE_COLUMNS}`,
      [randomUUID(), input.name, input.productId, input.tokens, now, now],
    );
    return row ? toBundle(row) : undefined;
  }

  async patch(id: string, changes: Partial<TokenBundleInput>, now: Date): Promise<TokenBundle | 'taken' | undefined> {
    try {
      const [row] = await this.em().execute<BundleRow[]>(
        `update "token_bundle" set "name" = coalesce(?, "name"), "product_id" = coalesce(?, "product_id"),
           "tokens" = coalesce(?, "tokens"), "updated_at" = ?
          where "id" = ? and "deleted_at" is null returning ${BUNDLE_COLUMNS}`,
        [changes.name ?? null, changes.productId ?? null, changes.tokens ?? null, now, id],
      );
      return row ? toBundle(row) : undefined;
    } catch (error) {
      if (isUniqueViolation(error)) return 'taken';
      throw error;
    }
  }

  async delete(id: string, now: Date): Promise<boolean> {
    const rows = await this.em().execute<Array<{ id: string }>>(
      `update "token_bundle" set "deleted_at" = ? where "id" = ? and "deleted_at" is null returning "id"`,
      [now, id],
    );
    return rows.length > 0;
  }

  async find(id: string): Promise<TokenBundle | undefined> {
    const [row] = await this.em().execute<BundleRow[]>(
      `select ${BUNDLE_COLUMNS} from "token_bundle" where "id" = ? and "deleted_at" is null`,
      [id],
    );
    return row ? toBundle(row) : undefined;
  }

  async list(query: TokenBundleQuery): Promise<TokenBundle[]> {
    const where = [`"deleted_at" is null`];
    const params: unknown[] = [];
    if (query.ids.length > 0) {
      where.push(`"id" in (${query.ids.map(() => '?').join(', ')})`);
      params.push(...query.ids);
    }
    if (query.productIds.length > 0) {
      where.push(`"product_id" in (${query.productIds.map(() => '?').join(', ')})`);
      params.push(...query.productIds);
    }
    const rows = await this.em().execute<BundleRow[]>(
      `select ${BUNDLE_COLUMNS} from "token_bundle" where ${where.join(' and ')} order by "tokens" asc, "created_at" asc, "id" asc limit ? offset ?`,
      [...params, query.limit, query.offset],
    );
    return rows.map(toBundle);
  }

  async count(): Promise<number> {
    const [row] = await this.em().execute<Array<{ total: string }>>(
      `select count(*) as "total" from "token_bundle" where "deleted_at" is null`,
    );
    return Number(row?.total ?? 0);
  }
}
