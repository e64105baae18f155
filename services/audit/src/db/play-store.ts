import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { firstOfEachPlay, NO_PLAYS, sumPlays, type PlayEvent, type PlayKind, type PlayScope, type PlayTotals } from '../domain/plays.js';

/** How a kind is stored in `play_event_seen`. */
const KIND_NUMBER: Record<PlayKind, number> = { totalPlayed: 1, played15Sec: 2, played30Sec: 3 };

/** What a user did last, as `user_last_event` keeps it. */
export interface UserEventRow {
  userUuid: string;
  name: string;
  topic: string;
  occurredAt: Date;
  detail: Record<string, unknown>;
}

/**
 * Counts a batch of play events in the caller's transaction: the (play id,
 * kind) pairs not seen before are inserted into `play_event_seen` and only
 * those are added to `play_total`, so whatever Kafka delivers again (after a
 * crash before the offsets were committed) adds nothing. Answers how many
 * events were counted.
 */
export async function countPlays(em: EntityManager, events: readonly PlayEvent[]): Promise<number> {
  const unique = firstOfEachPlay(events);
  if (unique.length === 0) return 0;
  const fresh = await em.execute<Array<{ play_id: string; kind: number }>>(
    `insert into "play_event_seen" ("play_id", "kind")
     select r."play_id", r."kind" from jsonb_to_recordset(cast(? as jsonb)) as r("play_id" text, "kind" smallint)
     on conflict do nothing returning "play_id", "kind"`,
    [JSON.stringify(unique.map((event) => ({ play_id: event.playId, kind: KIND_NUMBER[event.kind] })))],
  );
  const isFresh = new Set(fresh.map((row) => `${row.play_id}\u0000${row.kind}`));
  const counted = unique.filter((event) => isFresh.has(`${event.playId}\u0000${KIND_NUMBER[event.kind]}`));
  // Rows in one order in every transaction, so two replicas adding to the same keys never deadlock.
  const sums = sumPlays(counted).sort((a, b) => (a.scope === b.scope ? (a.key < b.key ? -1 : 1) : a.scope < b.scope ? -1 : 1));
  if (sums.length > 0) {
    await em.execute(
      `insert into "play_total" ("scope", "key", "total_played", "played_seconds", "fifteen_second_plays", "thirty_second_plays", "updated_at")
       select r."scope", r."key", r."t", r."s", r."f", r."h", now()
       from jsonb_to_recordset(cast(? as jsonb)) as r("scope" text, "key" text, "t" bigint, "s" bigint, "f" bigint, "h" bigint)
       on conflict ("scope", "key") do update set
         "total_played" = "play_total"."total_played" + excluded."total_played",
         "played_seconds" = "play_total"."played_seconds" + excluded."played_seconds",
         "fifteen_second_plays" = "play_total"."fifteen_second_plays" + excluded."fifteen_second_plays",
         "thirty_second_plays" = "play_total"."thirty_second_plays" + excluded."thirty_second_plays",
         "updated_at" = now()`,
      [
        JSON.stringify(
          sums.map((sum) => ({
            scope: sum.scope,
            key: sum.key,
            t: sum.totalPlayed,
            s: sum.playedSeconds,
            f: sum.fifteenSecondPlays,
            h: sum.thirtySecondPlays,
          })),
        ),
      ],
    );
  }
  return counted.length;
}

/** Keeps each user's newest event (of those given and the one stored). */
export async function recordUserEvents(em: EntityManager, events: readonly UserEventRow[]): Promise<void> {
  const newest = new Map<string, UserEventRow>();
  for (const event of events) {
    const seen = newest.get(event.userUuid);
    if (!seen || seen.occurredAt.getTime() <= event.occurredAt.getTime()) newest.set(event.userUuid, event);
  }
  if (newest.size === 0) return;
  const rows = [...newest.values()].sort((a, b) => (a.userUuid < b.userUuid ? -1 : 1));
  await em.execute(
    `insert into "user_last_event" ("user_uuid", "name", "topic", "occurred_at", "detail")
     select r."user_uuid", r."name", r."topic", r."occurred_at", r."detail"
     from jsonb_to_recordset(cast(? as jsonb)) as r("user_uuid" uuid, "name" text, "topic" text, "occurred_at" timestamptz, "detail" jsonb)
     on conflict ("user_uuid") do update set
       "name" = excluded."name", "topic" = excluded."topic", "occurred_at" = excluded."occurred_at", "detail" = excluded."detail"
     where "user_last_event"."occurred_at" <= excluded."occurred_at"`,
    [
      JSON.stringify(
        rows.map((row) => ({
          user_uuid: row.userUuid,
          name: row.name,
          topic: row.topic,
          occurred_at: row.occurredAt.toISOString(),
          detail: row.detail,
        })),
      ),
    ],
  );
}

/** The reads of the play totals and the users' last events. */
export class PgPlayStore {
  constructor(private readonly orm: MikroORM) {}

  async totals(scope: PlayScope, key: string): Promise<PlayTotals> {
    const [row] = await this.orm.em
      .fork()
      .execute<Array<{ total_played: string; played_seconds: string; fifteen_second_plays: string; thirty_second_plays: string }>>(
        `select "total_played", "played_seconds", "fifteen_second_plays", "thirty_second_plays" from "play_total" where "scope" = ? and "key" = ?`,
        [scope, key],
      );
    if (!row) return { ...NO_PLAYS };
    return {
      totalPlayed: Number(row.total_played),
      playedSeconds: Number(row.played_seconds),
      fifteenSecondPlays: Number(row.fifteen_second_plays),
      thirtySecondPlays: Number(row.thirty_second_plays),
    };
  }

  async lastEvent(userUuid: string): Promise<UserEventRow | null> {
    const [row] = await this.orm.em
      .fork()
      .execute<Array<{ user_uuid: string; name: string; topic: string; occurred_at: Date; detail: Record<string, unknown> }>>(
        `select "user_uuid", "name", "topic", "occurred_at", "detail" from "user_last_event" where "user_uuid" = ?`,
        [userUuid],
      );
    return row
      ? { userUuid: row.user_uuid, name: row.name, topic: row.topic, occurredAt: new Date(row.occurred_at), detail: row.detail }
      : null;
  }

  /**
   * Forgets the (play id, kind) pairs counted before `before`, a batch at a time so no delete holds
   * many rows' locks; answers how many. Their totals stay: only the guard against redelivery goes.
   */
  async forgetSeen(before: Date, batch = 10_000): Promise<number> {
    let forgotten = 0;
    for (;;) {
      const rows = await this.orm.em.fork().execute<Array<{ play_id: string }>>(
        `delete from "play_event_seen" where ("play_id", "kind") in (
           select "play_id", "kind" from "play_event_seen" where "seen_at" < ? limit ?)
         returning "play_id"`,
        [before, batch],
      );
      forgotten += rows.length;
      if (rows.length < batch) return forgotten;
    }
  }

  /** The counts the status shows, and whether the database answers. */
  async status(): Promise<{ databaseOk: boolean; moderationActions: number; playsCounted: number }> {
    try {
      const [row] = await this.orm.em.fork().execute<Array<{ actions: string; plays: string }>>(
        // Plays counted: every event the 'all' row added up (play_event_seen is pruned by age).
        `select (select count(*) from "moderation_action") as "actions",
             (select coalesce(sum("total_played" + "fifteen_second_plays" + "thirty_second_plays"), 0) from "play_total" where "scope" = 'all') as "plays"`,
      );
      return { databaseOk: true, moderationActions: Number(row?.actions ?? 0), playsCounted: Number(row?.plays ?? 0) };
    } catch {
      return { databaseOk: false, moderationActions: 0, playsCounted: 0 };
    }
  }
}
