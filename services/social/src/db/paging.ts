import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A page's total: from the rows' `count(*) over ()`, or, when the page came
 * back empty (skipped past the end), from a count of its own.
 */
export async function pageTotal(em: EntityManager, rows: Array<{ total?: string }>, countSql: string, params: unknown[]): Promise<number> {
  if (rows[0]) return Number(rows[0].total);
  const [row] = await em.execute<Array<{ n: string }>>(countSql, params);
  return Number(row?.n ?? 0);
}
