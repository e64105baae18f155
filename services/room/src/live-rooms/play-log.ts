import type { PgRoomStore } from '../db/room-store.js';
import type { Effect } from '../domain/live/transitions.js';
import { songPlayed, stageChanged } from '../events/room-events.js';
import type { PlayLog, StageChange } from './live-rooms.js';

/**
 * Each play, stored with its `room.song-played` event in one transaction.
 * Idempotent by play id: a play recorded twice is announced once.
 */
export class PgPlayLog implements PlayLog {
  constructor(private readonly store: PgRoomStore) {}

  async songPlayed(play: Extract<Effect, { type: 'songPlayed' }>): Promise<void> {
    await this.store.write(async (tx) => {
      const inserted = await tx.em.execute<unknown[]>(
        `insert into "room_play" ("play_id", "room_uuid", "dj_uuid", "song", "started_at", "ended_at", "likes", "dislikes", "stars", "listeners")
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("play_id") do nothing returning "play_id"`,
        [
          play.playId,
          play.roomUuid,
          play.djUuid,
          JSON.stringify(play.song),
          new Date(play.startTime),
          new Date(Math.max(play.startTime, play.endTime)),
          play.voteCounts.likes,
          play.voteCounts.dislikes,
          play.voteCounts.stars,
          play.listeners,
        ],
      );
      if (inserted.length === 0) return;
      const [room] = await tx.em.execute<Array<{ slug: string }>>(`select "slug" from "room" where "uuid" = ?`, [play.roomUuid]);
      tx.stage(songPlayed({ ...play, roomSlug: room?.slug ?? '' }));
    });
  }

  /**
   * Announces who took and who left the stage (`room.stage-changed`), once per
   * change: its event id is the change's id, and an outbox that holds it already
   * (published rows stay) means it was announced. Two replays at once: the
   * outbox's unique event id fails the second, which finds it the next time.
   */
  async stageChanged(change: StageChange): Promise<void> {
    await this.store.write(async (tx) => {
      const seen = await tx.em.execute<unknown[]>(`select 1 from "outbox_message" where "event_id" = ?`, [change.changeId]);
      if (seen.length > 0) return;
      const [room] = await tx.em.execute<Array<{ slug: string; name: string }>>(`select "slug", "name" from "room" where "uuid" = ?`, [
        change.roomUuid,
      ]);
      tx.stage(stageChanged({ ...change, roomSlug: room?.slug ?? '', roomName: room?.name ?? '' }));
    });
  }

  /** Seconds of music played in the room so far (in every room without one). */
  async playedSeconds(roomUuid?: string): Promise<number> {
    const [row] = await this.store
      .fork()
      .execute<Array<{ seconds: number }>>(
        `select coalesce(sum(extract(epoch from ("ended_at" - "started_at"))), 0)::float as "seconds" from "room_play"${roomUuid ? ` where "room_uuid" = ?` : ''}`,
        roomUuid ? [roomUuid] : [],
      );
    return Math.round(Number(row?.seconds ?? 0));
  }
}
