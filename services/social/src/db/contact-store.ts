import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Page, Paged } from '../domain/actors.js';
import type { ContactKind, ContactMatch, ContactStore, HashedContact, StoredContact } from '../domain/contacts.js';
import { pageTotal } from './paging.js';

interface ContactRow {
  id: string;
  kind: string;
  created_at: Date;
  total?: string;
}

const toContact = (row: ContactRow): StoredContact => ({ id: row.id, kind: row.kind as ContactKind, createdAt: new Date(row.created_at) });

/** Rows per insert statement. */
const CHUNK = 500;

/** A user's own email, hashed, in the directory contacts are matched against (idempotent; the consumer's transaction). */
export async function addToDirectory(em: EntityManager, userUuid: string, contact: HashedContact, now: Date): Promise<void> {
  await em.execute(
    `insert into "contact_directory" ("hash", "user_uuid", "kind", "created_at") values (?, ?, ?, ?) on conflict do nothing`,
    [contact.hash, userUuid, contact.kind, now],
  );
}

export async function removeFromDirectory(em: EntityManager, userUuid: string, contact: HashedContact): Promise<void> {
  await em.execute(`delete from "contact_directory" where "hash" = ? and "user_uuid" = ?`, [contact.hash, userUuid]);
}

/** Address books (hashes only) and the users' directory in PostgreSQL. */
export class PgContactStore implements ContactStore {
  constructor(private readonly orm: MikroORM) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  async store(ownerUuid: string, contacts: HashedContact[], replace: boolean, now: Date): Promise<{ stored: number; total: number }> {
    return this.em().transactional(async (em) => {
      if (replace) await em.execute(`delete from "user_book_contact" where "owner_uuid" = ?`, [ownerUuid]);
      let stored = 0;
      for (let start = 0; start < contacts.length; start += CHUNK) {
        const chunk = contacts.slice(start, start + CHUNK);
        const rows = await em.execute(
          `insert into "user_book_contact" ("id", "owner_uuid", "kind", "hash", "created_at")
           values ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}
           on conflict ("owner_uuid", "hash") do nothing returning "id"`,
          chunk.flatMap((contact) => [randomUUID(), ownerUuid, contact.kind, contact.hash, now]),
        );
        stored += rows.length;
      }
      const [row] = await em.execute<Array<{ n: string }>>(`select count(*) as "n" from "user_book_contact" where "owner_uuid" = ?`, [
        ownerUuid,
      ]);
      return { stored, total: Number(row?.n ?? 0) };
    });
  }

  async deleteAll(ownerUuid: string): Promise<number> {
    const rows = await this.em().execute(`delete from "user_book_contact" where "owner_uuid" = ? returning "id"`, [ownerUuid]);
    return rows.length;
  }

  async list(ownerUuid: string, page: Page): Promise<Paged<StoredContact>> {
    const em = this.em();
    const rows = await em.execute<ContactRow[]>(
      `select "id", "kind", "created_at", count(*) over () as "total" from "user_book_contact" where "owner_uuid" = ?
       order by "created_at" desc, "id" limit ? offset ?`,
      [ownerUuid, page.take, page.skip],
    );
    const total = await pageTotal(em, rows, `select count(*) as "n" from "user_book_contact" where "owner_uuid" = ?`, [ownerUuid]);
    return { items: rows.map(toContact), total };
  }

  async match(ownerUuid: string, extra: HashedContact[]): Promise<ContactMatch[]> {
    // The given hashes travel as one array literal (hex digits only): an array parameter would expand to a list.
    const rows = await this.em().execute<
      Array<{ user_uuid: string; kind: string; is_friend: boolean; invitation_id: string | null; invited_by_caller: boolean | null }>
    >(
      `with "wanted" as (
         select "hash" from "user_book_contact" where "owner_uuid" = ?
         union select unnest(?::text[])
       ), "found" as (
         select distinct on (d."user_uuid") d."user_uuid", d."kind" from "contact_directory" d
         join "wanted" w on w."hash" = d."hash" where d."user_uuid" <> ?
         and not exists (select 1 from "blocked_user" b
           where (b."blocker_uuid" = ? and b."blocked_uuid" = d."user_uuid") or (b."blocker_uuid" = d."user_uuid" and b."blocked_uuid" = ?))
         order by d."user_uuid", d."kind"
       )
       select f."user_uuid", f."kind",
         exists (select 1 from "friendship" s where s."user_a" = least(?::uuid, f."user_uuid") and s."user_b" = greatest(?::uuid, f."user_uuid")) as "is_friend",
         i."id" as "invitation_id", (i."from_uuid" = ?) as "invited_by_caller"
       from "found" f
       left join "friend_invitation" i on i."status" = 'PENDING'
         and ((i."from_uuid" = ? and i."to_uuid" = f."user_uuid") or (i."from_uuid" = f."user_uuid" and i."to_uuid" = ?))
       order by f."user_uuid"`,
      [
        ownerUuid,
        `{${extra.map((contact) => contact.hash).join(',')}}`,
        ownerUuid,
        ownerUuid,
        ownerUuid,
        ownerUuid,
        ownerUuid,
        ownerUuid,
        ownerUuid,
        ownerUuid,
      ],
    );
    return rows.map((row) => ({
      userUuid: row.user_uuid,
      kind: row.kind as ContactKind,
      isFriend: row.is_friend,
      pendingInvitationId: row.invitation_id,
      invitedByCaller: row.invited_by_caller === true,
    }));
  }
}
