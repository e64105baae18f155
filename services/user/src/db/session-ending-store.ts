import type { MikroORM } from '@mikro-orm/postgresql';
import type { SessionsEnded } from '@spinroom/platform';
import type { SessionEndingStore } from '../domain/sessions.js';

/** When each user's sessions last ended, in PostgreSQL (`session_ending`, one row a user). */
export class PgSessionEndingStore implements SessionEndingStore {
  constructor(private readonly orm: MikroORM) {}

  async record(ended: SessionsEnded): Promise<void> {
    await this.orm.em.fork().execute(
      `insert into "session_ending" ("user_uuid", "valid_after") values (?, ?)
       on conflict ("user_uuid") do update set "valid_after" = greatest("session_ending"."valid_after", excluded."valid_after")`,
      [ended.userUuid, new Date(ended.validAfterMs)],
    );
  }

  async endedSince(since: Date): Promise<SessionsEnded[]> {
    const rows = await this.orm.em
      .fork()
      .execute<Array<{ user_uuid: string; valid_after: Date }>>(
        `select "user_uuid", "valid_after" from "session_ending" where "valid_after" > ?`,
        [since],
      );
    return rows.map((row) => ({ userUuid: row.user_uuid, validAfterMs: new Date(row.valid_after).getTime() }));
  }
}
