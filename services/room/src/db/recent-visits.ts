import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '@spinroom/platform';

/**
 * Recent rooms written behind the joins: a visit is kept in memory (one entry
 * per user and room, the latest time) and the waiting visits are written
 * every `flushMs` in one statement, then each of their users' list pruned to
 * `keep` in another. A user's list is written first when it is read, and the
 * waiting visits on a graceful stop. Rooms deleted meanwhile are skipped.
 */
export class RecentVisits {
  private waiting = new Map<string, { userUuid: string; roomId: number; at: number; keep: number }>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly fork: () => EntityManager,
    private readonly logger: Logger | undefined,
    private readonly flushMs = 1_000,
  ) {}

  record(userUuid: string, roomId: number, keep: number): void {
    this.waiting.set(`${userUuid}|${roomId}`, { userUuid, roomId, at: Date.now(), keep });
    this.schedule();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch((error: unknown) => this.logger?.error({ err: error }, 'recent rooms not written'));
    }, this.flushMs).unref();
  }

  /** A user's visits are about to be read: theirs are written now (with all others waiting). */
  async flushFor(userUuid: string): Promise<void> {
    if ([...this.waiting.values()].some((v) => v.userUuid === userUuid)) await this.flush();
    else await this.flushing;
  }

  /** A user's recent rooms are forgotten: their waiting visits too. */
  forget(userUuid: string): void {
    for (const [key, visit] of this.waiting) if (visit.userUuid === userUuid) this.waiting.delete(key);
  }

  /** Writes every waiting visit (one at a time: a flush waits for the one before). */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.write());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.waiting.size === 0) return;
    const visits = [...this.waiting.values()];
    this.waiting = new Map();
    const keep = Math.max(...visits.map((v) => v.keep));
    const users = [...new Set(visits.map((v) => v.userUuid))];
    try {
      await this.fork().transactional(async (em) => {
        await em.execute(
          `insert into "recent_room" ("user_uuid", "room_id", "visited_at")
           select v.u, v.r, to_timestamp(v.t / 1000.0) from unnest(?::uuid[], ?::int[], ?::float8[]) as v(u, r, t)
           where exists (select 1 from "room" x where x."id" = v.r)
           on conflict ("user_uuid", "room_id") do update set "visited_at" = greatest("recent_room"."visited_at", excluded."visited_at")`,
          [
            `{${visits.map((v) => v.userUuid).join(',')}}`,
            `{${visits.map((v) => v.roomId).join(',')}}`,
            `{${visits.map((v) => v.at).join(',')}}`,
          ],
        );
        await em.execute(
          `delete from "recent_room" r using (
             select "user_uuid", "room_id", row_number() over (partition by "user_uuid" order by "visited_at" desc) as n
             from "recent_room" where "user_uuid" = any(?::uuid[])) ranked
           where r."user_uuid" = ranked."user_uuid" and r."room_id" = ranked."room_id" and ranked.n > ?`,
          [`{${users.join(',')}}`, keep],
        );
      });
    } catch (error) {
      // Kept for the next flush, unless a newer visit of the same pair came meanwhile.
      for (const v of visits) {
        const key = `${v.userUuid}|${v.roomId}`;
        if (!this.waiting.has(key)) this.waiting.set(key, v);
      }
      this.schedule();
      throw error;
    }
  }
}
