import { UniqueConstraintViolationException, type MikroORM } from '@mikro-orm/postgresql';
import {
  MAX_CODE_ATTEMPTS,
  EmailInUseError,
  type AccountEmail,
  type EmailStatus,
  type EmailStore,
  type EmailType,
} from '../domain/mail/emails.js';
import type { LinkPurpose, LinkStore, MailedLink } from '../domain/mail/links.js';
import type { PasswordStore } from '../domain/mail/passwords.js';

const EMAIL_COLUMNS = `"id", "user_uuid", "email", "type", "status", "created_at", "verified_at"`;

interface EmailRow {
  id: number;
  user_uuid: string;
  email: string;
  type: EmailType;
  status: EmailStatus;
  created_at: Date | string;
  verified_at: Date | string | null;
}

function toEmail(row: EmailRow): AccountEmail {
  return {
    id: Number(row.id),
    userUuid: row.user_uuid,
    email: row.email,
    type: row.type,
    status: row.status,
    createdAt: new Date(row.created_at),
    verifiedAt: row.verified_at ? new Date(row.verified_at) : null,
  };
}

/** The mail area's PostgreSQL store: addresses, mailed links, and the password column of `user_account`. */
export class PgMailStore implements EmailStore, LinkStore, PasswordStore {
  constructor(private readonly orm: MikroORM) {}

  private em() {
    return this.orm.em.fork();
  }

  async list(userUuid: string): Promise<AccountEmail[]> {
    const rows = await this.em().execute<EmailRow[]>(
      `select ${EMAIL_COLUMNS} from "user_email" where "user_uuid" = ? and "status" <> 'DELETED' order by "id"`,
      [userUuid],
    );
    return rows.map(toEmail);
  }

  async findLive(email: string): Promise<AccountEmail | null> {
    const [row] = await this.em().execute<EmailRow[]>(
      `select ${EMAIL_COLUMNS} from "user_email" where "email" = ? and "status" <> 'DELETED'`,
      [email],
    );
    return row ? toEmail(row) : null;
  }

  async add(
    input: { userUuid: string; email: string; type: EmailType; status: EmailStatus; code: { hash: string; expiresAt: Date } | null },
    options: { takeOver?: boolean } = {},
  ): Promise<AccountEmail> {
    try {
      return await this.em().transactional(async (em) => {
        if (options.takeOver) {
          await em.execute(
            `update "user_email" set "status" = 'DELETED', "code_hash" = null where "email" = ? and "status" = 'PENDING_VERIFICATION' and "user_uuid" <> ?`,
            [input.email, input.userUuid],
          );
        }
        const [row] = await em.execute<EmailRow[]>(
          `insert into "user_email" ("user_uuid", "email", "type", "status", "code_hash", "code_expires_at", "verified_at")
           values (?, ?, ?, ?, ?, ?, ?) returning ${EMAIL_COLUMNS}`,
          [
            input.userUuid,
            input.email,
            input.type,
            input.status,
            input.code?.hash ?? null,
            input.code?.expiresAt ?? null,
            input.status === 'PENDING_VERIFICATION' ? null : new Date(),
          ],
        );
        return toEmail(row!);
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new EmailInUseError();
      throw error;
    }
  }

  async setCode(id: number, code: { hash: string; expiresAt: Date }): Promise<void> {
    await this.em().execute(
      `update "user_email" set "code_hash" = ?, "code_expires_at" = ?, "code_attempts" = 0 where "id" = ? and "status" = 'PENDING_VERIFICATION'`,
      [code.hash, code.expiresAt, id],
    );
  }

  async markDeleted(id: number): Promise<void> {
    await this.em().execute(`update "user_email" set "status" = 'DELETED', "code_hash" = null where "id" = ?`, [id]);
  }

  async verifyByCode(userUuid: string, codeHash: string, now: Date): Promise<AccountEmail | null> {
    // One statement: a code verifies once, however many requests race with it.
    // The conditions stand in the outer WHERE too: a request that waited for
    // another's row lock re-checks them on the row as that one left it
    // (verified), where the subquery alone, read once, would match again.
    const [row] = await this.em().execute<EmailRow[]>(
      `update "user_email" set "status" = 'VERIFIED', "verified_at" = ?, "code_hash" = null, "code_expires_at" = null
       where "status" = 'PENDING_VERIFICATION' and "code_hash" = ?
         and "id" = (select "id" from "user_email" where "user_uuid" = ? and "status" = 'PENDING_VERIFICATION'
           and "code_hash" = ? and "code_expires_at" > ? and "code_attempts" < ? order by "id" limit 1)
       returning ${EMAIL_COLUMNS}`,
      [now, codeHash, userUuid, codeHash, now, MAX_CODE_ATTEMPTS],
    );
    return row ? toEmail(row) : null;
  }

  async countWrongCode(userUuid: string): Promise<void> {
    await this.em().execute(
      `update "user_email" set "code_attempts" = "code_attempts" + 1 where "user_uuid" = ? and "status" = 'PENDING_VERIFICATION'`,
      [userUuid],
    );
  }

  async markVerified(userUuid: string, email: string, now: Date): Promise<void> {
    const updated = await this.em().execute<{ id: number }[]>(
      `update "user_email" set "status" = 'VERIFIED', "verified_at" = ?, "code_hash" = null, "code_expires_at" = null
       where "user_uuid" = ? and "email" = ? and "status" = 'PENDING_VERIFICATION' returning "id"`,
      [now, userUuid, email],
    );
    if (updated.length > 0) return;
    if ((await this.list(userUuid)).some((e) => e.email === email)) return; // verified already
    await this.add({ userUuid, email, type: 'personal', status: 'VERIFIED', code: null }, { takeOver: true });
  }

  async create(link: MailedLink & { tokenHash: string; expiresAt: Date }): Promise<void> {
    const em = this.em();
    // Links past their time are of no use to anyone: cleared as new ones come.
    await em.execute(`delete from "mail_link" where "expires_at" < now() - interval '1 day'`);
    await em.execute(`insert into "mail_link" ("token_hash", "purpose", "user_uuid", "email", "expires_at") values (?, ?, ?, ?, ?)`, [
      link.tokenHash,
      link.purpose,
      link.userUuid,
      link.email,
      link.expiresAt,
    ]);
  }

  async find(tokenHash: string, purpose: LinkPurpose, now: Date): Promise<MailedLink | null> {
    const [row] = await this.em().execute<{ purpose: LinkPurpose; user_uuid: string | null; email: string }[]>(
      `select "purpose", "user_uuid", "email" from "mail_link" where "token_hash" = ? and "purpose" = ? and "used_at" is null and "expires_at" > ?`,
      [tokenHash, purpose, now],
    );
    return row ? { purpose: row.purpose, userUuid: row.user_uuid, email: row.email } : null;
  }

  async consume(tokenHash: string, purpose: LinkPurpose, now: Date): Promise<MailedLink | null> {
    const [row] = await this.em().execute<{ purpose: LinkPurpose; user_uuid: string | null; email: string }[]>(
      `update "mail_link" set "used_at" = ? where "token_hash" = ? and "purpose" = ? and "used_at" is null and "expires_at" > ?
       returning "purpose", "user_uuid", "email"`,
      [now, tokenHash, purpose, now],
    );
    return row ? { purpose: row.purpose, userUuid: row.user_uuid, email: row.email } : null;
  }

  async setPasswordHash(userUuid: string, passwordHash: string): Promise<void> {
    await this.em().execute(`update "user_account" set "password_hash" = ?, "updated_at" = now() where "uuid" = ?`, [
      passwordHash,
      userUuid,
    ]);
  }

  async setFirstPasswordHash(userUuid: string, passwordHash: string): Promise<boolean> {
    const [row] = await this.em().execute<{ uuid: string }[]>(
      `update "user_account" set "password_hash" = ?, "updated_at" = now() where "uuid" = ? and "password_hash" is null returning "uuid"`,
      [passwordHash, userUuid],
    );
    return row !== undefined;
  }
}
