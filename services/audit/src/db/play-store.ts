import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { firstOfEachPlay, NO_PLAYS, playDelta, type PlayEvent, type PlayKind, type PlayScope, type PlayTotals } from '../domain/plays.js';

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
 * Counts a consumed batch in one statement (so one transaction and one round
 * trip): the batch's (play id, kind) pairs not seen before are inserted into
 * `play_event_seen`, only those are added to `play_total` under each of their
 * scopes (summed per scope and key), and each user's newest event is kept in
 * `user_last_event`. Whatever Kafka delivers again (after a crash before the
 * offsets were committed) finds its pairs seen and adds nothing. Answers how
 * many events were counted.
 */
export async function countBatch(em: EntityManager, events: readonly PlayEvent[], userEvents: readonly UserEventRow[]): Promise<number> {
  const unique = firstOfEachPlay(events);
  const users = newestPerUser(userEvents);
  if (unique.length === 0 && users.length === 0) return 0;
  const plays = unique.map((event) => {
    const delta = playDelta(event);
    return {
      play_id: event.playId,
      kind: KIND_NUMBER[event.kind],
      song: event.songId,
      dj: event.djUuid,
      room: event.roomSlug,
      usr: event.userUuid,
      t: delta.totalPlayed,
      s: delta.playedSeconds,
      f: delta.fifteenSecondPlays,
      h: delta.thirtySecondPlays,
    };
  });
  // Data-modifying CTEs all run, to completion, in the statement's one snapshot; the totals
  // and the last events are written in one order in every statement, so two replicas adding
  // to the same keys never deadlock. Sent with bound parameters (a prepared statement) on the
  // ORM's pool: inlined, the batch's JSON was escaped into the text and parsed again, a few
  // per cent of the consumer's CPU.
  const pool = await em.getConnection().getNativeClient();
  const { rows } = await pool.query<{ counted: number }>({
    name: 'audit-count-batch',
    text: COUNT_BATCH,
    values: [JSON.stringify(plays), JSON.stringify(users.map(lastEventJson))],
  });
  return Number(rows[0]?.counted ?? 0);
}

/** Each user's newest event of those given, in user order (the order rows are locked in). */
function newestPerUser(events: readonly UserEventRow[]): UserEventRow[] {
  const newest = new Map<string, UserEventRow>();
  for (const event of events) {
    const seen = newest.get(event.userUuid);
    if (!seen || seen.occurredAt.getTime() <= event.occurredAt.getTime()) newest.set(event.userUuid, event);
  }
  return [...newest.values()].sort((a, b) => (a.userUuid < b.userUuid ? -1 : 1));
}

const lastEventJson = (row: UserEventRow) => ({
  user_uuid: row.userUuid,
  name: row.name,
  topic: row.topic,
  occurred_at: row.occurredAt.toISOString(),
  detail: row.detail,
});

/** Keeps the given users' newest events unless a newer one is stored; its one parameter (`param`) is their JSON. */
const upsertLastEvents = (param: string) => `insert into "user_last_event" ("user_uuid", "name", "topic", "occurred_at", "detail")
     select r."user_uuid", r."name", r."topic", r."occurred_at", r."detail"
     from jsonb_to_recordset(cast(${param} as jsonb)) as r("user_uuid" uuid, "name" text, "topic" text, "occurred_at" timestamptz, "detail" jsonb)
     order by r."user_uuid"
     on conflict ("user_uuid") do update set
       "name" = excluded."name", "topic" = excluded."topic", "occurred_at" = excluded."occurred_at", "detail" = excluded."detail"
     where "user_last_event"."occurred_at" <= excluded."occurred_at"`;

/** `countBatch`'s statement: $1 the batch's plays, $2 the users' newest events, as JSON. */
const COUNT_BATCH = `with "batch" as (
       select * from jsonb_to_recordset(cast($1 as jsonb))
         as r("play_id" text, "kind" smallint, "song" text, "dj" text, "room" text, "usr" text, "t" bigint, "s" bigint, "f" bigint, "h" bigint)
     ), "fresh" as (
       insert into "play_event_seen" ("play_id", "kind") select "play_id", "kind" from "batch"
       on conflict do nothing returning "play_id", "kind"
     ), "sums" as (
       select k."scope", k."key", sum(b."t") as "t", sum(b."s") as "s", sum(b."f") as "f", sum(b."h") as "h"
       from "batch" b
       join "fresh" f on f."play_id" = b."play_id" and f."kind" = b."kind"
       cross join lateral (values ('all', ''), ('song', b."song"), ('dj', b."dj"), ('room', b."room"), ('user', b."usr")) as k("scope", "key")
       where k."scope" = 'all' or k."key" <> ''
       group by k."scope", k."key"
     ), "totals" as (
       insert into "play_total" ("scope", "key", "total_played", "played_seconds", "fifteen_second_plays", "thirty_second_plays", "updated_at")
       select "scope", "key", "t", "s", "f", "h", now() from "sums" order by "scope" collate "C", "key" collate "C"
       on conflict ("scope", "key") do update set
         "total_played" = "play_total"."total_played" + excluded."total_played",
         "played_seconds" = "play_total"."played_seconds" + excluded."played_seconds",
         "fifteen_second_plays" = "play_total"."fifteen_second_plays" + excluded."fifteen_second_plays",
         "thirty_second_plays" = "play_total"."thirty_second_plays" + excluded."thirty_second_plays",
         "updated_at" = now()
       returning 1
     ), "last" as (
       ${upsertLastEvents('$2')}
       returning 1
     )
     select count(*)::int as "counted" from "fresh"`;

/** Keeps each user's newest event (of those given and the one stored), in the caller's transaction. */
export async function recordUserEvents(em: EntityManager, events: readonly UserEventRow[]): Promise<void> {
  const users = newestPerUser(events);
  if (users.length === 0) return;
  await em.execute(upsertLastEvents('?'), [JSON.stringify(users.map(lastEventJson))]);
}

/** The reads of the play totals and the users' last events. */
export class PgPlayStore {
  constructor(private readonly orm: MikroORM) {}

  /** Counts a batch as the consumer does (`countBatch`), outside any transaction of the caller's. */
  count(events: readonly PlayEvent[], userEvents: readonly UserEventRow[] = []): Promise<number> {
    return countBatch(this.orm.em.fork(), events, userEvents);
  }

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
