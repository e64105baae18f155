import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { addToOutbox } from '@spinroom/platform';
import type { Page, Paged } from '../domain/actors.js';
import type { Friend, FriendInvitation, FriendStore, InvitationStatus, InviteOutcome } from '../domain/friends.js';
import { friendInvitationAnswered, friendInvitationSent } from '../events/social-events.js';
import { pageTotal } from './paging.js';

interface InvitationRow {
  id: string;
  from_uuid: string;
  to_uuid: string;
  status: string;
  created_at: Date;
  answered_at: Date | null;
  total?: string;
}

interface FriendshipRow {
  id: string;
  user_a: string;
  user_b: string;
  created_at: Date;
  total?: string;
}

const INVITATION = `"id", "from_uuid", "to_uuid", "status", "created_at", "answered_at"`;
const FRIENDSHIP = `"id", "user_a", "user_b", "created_at"`;
const UNIQUE_VIOLATION = '23505';

const toInvitation = (row: InvitationRow): FriendInvitation => ({
  id: row.id,
  fromUuid: row.from_uuid,
  toUuid: row.to_uuid,
  status: row.status as InvitationStatus,
  createdAt: new Date(row.created_at),
  answeredAt: row.answered_at ? new Date(row.answered_at) : null,
});

/** A friendship as `viewer` sees it. */
const toFriend = (row: FriendshipRow, viewer: string): Friend => ({
  id: row.id,
  userUuid: viewer,
  friendUuid: row.user_a === viewer ? row.user_b : row.user_a,
  createdAt: new Date(row.created_at),
});

const ordered = (one: string, two: string): [string, string] => (one < two ? [one, two] : [two, one]);

/** Friend invitations and friendships in PostgreSQL; each change commits with the event announcing it. */
export class PgFriendStore implements FriendStore {
  constructor(
    private readonly orm: MikroORM,
    private readonly onEventsCommitted: () => void = () => undefined,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  async invite(fromUuid: string, toUuid: string, now: Date): Promise<InviteOutcome> {
    try {
      const outcome = await this.em().transactional(async (em): Promise<InviteOutcome> => {
        const [a, b] = ordered(fromUuid, toUuid);
        const friends = await em.execute(`select 1 from "friendship" where "user_a" = ? and "user_b" = ?`, [a, b]);
        if (friends.length > 0) return 'friends';
        // The partial unique index keeps one pending invitation per pair, whichever way.
        const [row] = await em.execute<InvitationRow[]>(
          `insert into "friend_invitation" (${INVITATION}) values (?, ?, ?, 'PENDING', ?, null) returning ${INVITATION}`,
          [randomUUID(), fromUuid, toUuid, now],
        );
        const invitation = toInvitation(row!);
        addToOutbox(em, friendInvitationSent(invitation));
        return invitation;
      });
      if (typeof outcome === 'object') this.onEventsCommitted();
      return outcome;
    } catch (error) {
      if (typeof error === 'object' && error !== null && 'code' in error && error.code === UNIQUE_VIOLATION) return 'pending';
      throw error;
    }
  }

  async findInvitation(id: string): Promise<FriendInvitation | undefined> {
    const [row] = await this.em().execute<InvitationRow[]>(`select ${INVITATION} from "friend_invitation" where "id" = ?`, [id]);
    return row ? toInvitation(row) : undefined;
  }

  private async pending(column: 'to_uuid' | 'from_uuid', userUuid: string, page: Page): Promise<Paged<FriendInvitation>> {
    const em = this.em();
    const rows = await em.execute<InvitationRow[]>(
      `select ${INVITATION}, count(*) over () as "total" from "friend_invitation"
       where "${column}" = ? and "status" = 'PENDING' order by "created_at" desc, "id" limit ? offset ?`,
      [userUuid, page.take, page.skip],
    );
    const total = await pageTotal(
      em,
      rows,
      `select count(*) as "n" from "friend_invitation" where "${column}" = ? and "status" = 'PENDING'`,
      [userUuid],
    );
    return { items: rows.map(toInvitation), total };
  }

  received(userUuid: string, page: Page): Promise<Paged<FriendInvitation>> {
    return this.pending('to_uuid', userUuid, page);
  }

  sent(userUuid: string, page: Page): Promise<Paged<FriendInvitation>> {
    return this.pending('from_uuid', userUuid, page);
  }

  async deleteInvitation(id: string): Promise<boolean> {
    const rows = await this.em().execute(`delete from "friend_invitation" where "id" = ? returning "id"`, [id]);
    return rows.length > 0;
  }

  async answer(id: string, accept: boolean, now: Date): Promise<{ invitation: FriendInvitation; friend?: Friend } | undefined> {
    const result = await this.em().transactional(async (em) => {
      const [row] = await em.execute<InvitationRow[]>(
        `update "friend_invitation" set "status" = ?, "answered_at" = ? where "id" = ? and "status" = 'PENDING' returning ${INVITATION}`,
        [accept ? 'ACCEPTED' : 'REJECTED', now, id],
      );
      if (!row) return undefined;
      const invitation = toInvitation(row);
      addToOutbox(em, friendInvitationAnswered(invitation));
      if (!accept) return { invitation };
      const [a, b] = ordered(invitation.fromUuid, invitation.toUuid);
      await em.execute(`insert into "friendship" (${FRIENDSHIP}) values (?, ?, ?, ?) on conflict ("user_a", "user_b") do nothing`, [
        randomUUID(),
        a,
        b,
        now,
      ]);
      const [friendship] = await em.execute<FriendshipRow[]>(`select ${FRIENDSHIP} from "friendship" where "user_a" = ? and "user_b" = ?`, [
        a,
        b,
      ]);
      return { invitation, friend: toFriend(friendship!, invitation.toUuid) };
    });
    if (result) this.onEventsCommitted();
    return result;
  }

  async findFriend(viewerUuid: string, idOrUser: string): Promise<Friend | undefined> {
    const [a, b] = ordered(viewerUuid, idOrUser);
    const [row] = await this.em().execute<FriendshipRow[]>(
      `select ${FRIENDSHIP} from "friendship"
       where ("user_a" = ? and "user_b" = ?) or ("id" = ? and (? in ("user_a", "user_b"))) limit 1`,
      [a, b, idOrUser, viewerUuid],
    );
    return row ? toFriend(row, viewerUuid) : undefined;
  }

  async deleteFriend(viewerUuid: string, idOrUser: string): Promise<boolean> {
    const [a, b] = ordered(viewerUuid, idOrUser);
    const rows = await this.em().execute(
      `delete from "friendship" where ("user_a" = ? and "user_b" = ?) or ("id" = ? and (? in ("user_a", "user_b"))) returning "id"`,
      [a, b, idOrUser, viewerUuid],
    );
    return rows.length > 0;
  }

  async friendsOf(userUuid: string, page: Page): Promise<Paged<Friend>> {
    const em = this.em();
    const rows = await em.execute<FriendshipRow[]>(
      `select ${FRIENDSHIP}, count(*) over () as "total" from "friendship" where "user_a" = ? or "user_b" = ?
       order by "created_at" desc, "id" limit ? offset ?`,
      [userUuid, userUuid, page.take, page.skip],
    );
    const total = await pageTotal(em, rows, `select count(*) as "n" from "friendship" where "user_a" = ? or "user_b" = ?`, [
      userUuid,
      userUuid,
    ]);
    return { items: rows.map((row) => toFriend(row, userUuid)), total };
  }
}
