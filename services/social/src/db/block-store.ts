import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Page, Paged } from '../domain/actors.js';
import type { Block, BlockStore } from '../domain/blocks.js';

interface BlockRow {
  id: string;
  blocker_uuid: string;
  blocked_uuid: string;
  created_at: Date;
  total?: string;
}

const toBlock = (row: BlockRow): Block => ({
  id: row.id,
  blockerUuid: row.blocker_uuid,
  blockedUuid: row.blocked_uuid,
  createdAt: new Date(row.created_at),
});

const COLUMNS = `"id", "blocker_uuid", "blocked_uuid", "created_at"`;

/** Blocks in PostgreSQL. */
export class PgBlockStore implements BlockStore {
  constructor(private readonly orm: MikroORM) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  async block(blockerUuid: string, blockedUuid: string, now: Date): Promise<{ block: Block; created: boolean }> {
    return this.em().transactional(async (em) => {
      const inserted = await em.execute<BlockRow[]>(
        `insert into "blocked_user" (${COLUMNS}) values (?, ?, ?, ?)
         on conflict ("blocker_uuid", "blocked_uuid") do nothing returning ${COLUMNS}`,
        [randomUUID(), blockerUuid, blockedUuid, now],
      );
      if (inserted[0]) {
        // A block ends what the two had: the pending invitation between them and their friendship.
        await em.execute(
          `delete from "friend_invitation" where "status" = 'PENDING'
           and (("from_uuid" = ? and "to_uuid" = ?) or ("from_uuid" = ? and "to_uuid" = ?))`,
          [blockerUuid, blockedUuid, blockedUuid, blockerUuid],
        );
        const [a, b] = blockerUuid < blockedUuid ? [blockerUuid, blockedUuid] : [blockedUuid, blockerUuid];
        await em.execute(`delete from "friendship" where "user_a" = ? and "user_b" = ?`, [a, b]);
        return { block: toBlock(inserted[0]), created: true };
      }
      const [existing] = await em.execute<BlockRow[]>(
        `select ${COLUMNS} from "blocked_user" where "blocker_uuid" = ? and "blocked_uuid" = ?`,
        [blockerUuid, blockedUuid],
      );
      return { block: toBlock(existing!), created: false };
    });
  }

  async list(blockerUuid: string, page: Page): Promise<Paged<Block>> {
    const rows = await this.em().execute<BlockRow[]>(
      `select ${COLUMNS}, count(*) over () as "total" from "blocked_user" where "blocker_uuid" = ?
       order by "created_at" desc, "id" limit ? offset ?`,
      [blockerUuid, page.take, page.skip],
    );
    return { items: rows.map(toBlock), total: rows[0] ? Number(rows[0].total) : await this.count(blockerUuid) };
  }

  private async count(blockerUuid: string): Promise<number> {
    const [row] = await this.em().execute<Array<{ n: string }>>(`select count(*) as "n" from "blocked_user" where "blocker_uuid" = ?`, [
      blockerUuid,
    ]);
    return Number(row?.n ?? 0);
  }

  async find(blockerUuid: string, idOrUser: string): Promise<Block | undefined> {
    const [row] = await this.em().execute<BlockRow[]>(
      `select ${COLUMNS} from "blocked_user" where "blocker_uuid" = ? and ("id" = ? or "blocked_uuid" = ?) limit 1`,
      [blockerUuid, idOrUser, idOrUser],
    );
    return row ? toBlock(row) : undefined;
  }

  async remove(blockerUuid: string, idOrUser: string): Promise<boolean> {
    const rows = await this.em().execute<Array<{ id: string }>>(
      `delete from "blocked_user" where "blocker_uuid" = ? and ("id" = ? or "blocked_uuid" = ?) returning "id"`,
      [blockerUuid, idOrUser, idOrUser],
    );
    return rows.length > 0;
  }

  async between(userUuid: string, otherUuid: string) {
    const rows = await this.em().execute<Array<{ blocker_uuid: string }>>(
      `select "blocker_uuid" from "blocked_user"
       where ("blocker_uuid" = ? and "blocked_uuid" = ?) or ("blocker_uuid" = ? and "blocked_uuid" = ?)`,
      [userUuid, otherUuid, otherUuid, userUuid],
    );
    return {
      userBlockedOther: rows.some((row) => row.blocker_uuid === userUuid),
      otherBlockedUser: rows.some((row) => row.blocker_uuid === otherUuid),
    };
  }

  async of(userUuid: string) {
    const rows = await this.em().execute<Array<{ blocker_uuid: string; blocked_uuid: string }>>(
      `select "blocker_uuid", "blocked_uuid" from "blocked_user" where "blocker_uuid" = ? or "blocked_uuid" = ? order by "created_at"`,
      [userUuid, userUuid],
    );
    return {
      blocked: rows.filter((row) => row.blocker_uuid === userUuid).map((row) => row.blocked_uuid),
      blockedBy: rows.filter((row) => row.blocked_uuid === userUuid).map((row) => row.blocker_uuid),
    };
  }
}
