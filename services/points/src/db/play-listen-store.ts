import type { EntityManager } from '@mikro-orm/postgresql';

/** How long a play's audience and its listeners' reports wait for each other. */
const KEPT_MS = 2 * 86_400_000;
const PRUNED_PER_WRITE = 100;
/**
 * How late after a play's end a report of it may arrive. Under 25 s, so a
 * report never meets two plays of one DJ in one room: the next play's
 * 30-second report comes at least 25 s after that play began (spec 002).
 */
const LATE_REPORT_SECONDS = 10;

/** A listen that earns its DJ a point: counted in the play's audience and reported played. */
export interface EarnedListen {
  playId: string;
  listenerUuid: string;
  djUuid: string;
  startedAt: Date;
}

/** Where a report and a play meet: the room and the DJ. */
export interface Stage {
  roomSlug: string;
  djUuid: string;
}

/**
 * Serialises the two consumers (room-events, play-tracking) on one DJ's
 * plays in one room, so whichever writes second sees the other's row. Taken
 * before any point row, in both, so the order of locks is always the same.
 */
export async function lockStage(em: EntityManager, stage: Stage): Promise<void> {
  await em.execute(`select pg_advisory_xact_lock(hashtext(?))`, [`listens:${stage.roomSlug}:${stage.djUuid}`]);
}

async function prune(em: EntityManager, table: 'play_listener' | 'play_report', now: Date): Promise<void> {
  await em.execute(`delete from "${table}" where ctid in (select ctid from "${table}" where "recorded_at" < ? limit ${PRUNED_PER_WRITE})`, [
    new Date(now.getTime() - KEPT_MS),
  ]);
}

/** The listeners the room service counted in a play (domain/points.ts, countedListeners). */
export async function recordListeners(
  em: EntityManager,
  play: Stage & { playId: string; startedAt: Date; endedAt: Date },
  listenerUuids: string[],
  now: Date,
): Promise<void> {
  if (listenerUuids.length > 0) {
    await em.execute(
      `insert into "play_listener" ("play_id", "listener_uuid", "room_slug", "dj_uuid", "started_at", "ended_at", "recorded_at")
       values ${listenerUuids.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')} on conflict do nothing`,
      listenerUuids.flatMap((listener) => [play.playId, listener, play.roomSlug, play.djUuid, play.startedAt, play.endedAt, now]),
    );
  }
  await prune(em, 'play_listener', now);
}

/** A listener's report of 30 seconds played with the sound on, at the time the platform received it. */
export async function recordReport(em: EntityManager, stage: Stage, listenerUuid: string, reportedAt: Date, now: Date): Promise<void> {
  await em.execute(
    `insert into "play_report" ("room_slug", "dj_uuid", "listener_uuid", "reported_at", "recorded_at")
     values (?, ?, ?, ?, ?) on conflict do nothing`,
    [stage.roomSlug, stage.djUuid, listenerUuid, reportedAt, now],
  );
  await prune(em, 'play_report', now);
}

/** The listens on this stage that have both halves: of one play, or of one listener. */
export async function earnedListens(
  em: EntityManager,
  stage: Stage,
  only: { playId: string } | { listenerUuid: string },
): Promise<EarnedListen[]> {
  const [column, value] = 'playId' in only ? ['play_id', only.playId] : ['listener_uuid', only.listenerUuid];
  const rows = await em.execute<Array<{ play_id: string; listener_uuid: string; started_at: Date }>>(
    `select l."play_id", l."listener_uuid", l."started_at" from "play_listener" l
     where l."room_slug" = ? and l."dj_uuid" = ? and l."${column}" = ?
       and exists (select 1 from "play_report" r
         where r."room_slug" = l."room_slug" and r."dj_uuid" = l."dj_uuid" and r."listener_uuid" = l."listener_uuid"
           and r."reported_at" >= l."started_at" and r."reported_at" <= l."ended_at" + interval '${LATE_REPORT_SECONDS} seconds')`,
    [stage.roomSlug, stage.djUuid, value],
  );
  return rows.map((row) => ({
    playId: row.play_id,
    listenerUuid: row.listener_uuid,
    djUuid: stage.djUuid,
    startedAt: new Date(row.started_at),
  }));
}
