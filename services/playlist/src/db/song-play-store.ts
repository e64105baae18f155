import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';

/** A song played in a room (spec 002 "Recent song play"). */
export interface SongPlay {
  playId: string;
  roomUuid: string;
  djUuid: string;
  song: Record<string, unknown>;
  voteCounts: { likes: number; dislikes: number; stars: number };
  playedAt: Date;
}

interface Row {
  play_id: string;
  room_uuid: string;
  dj_uuid: string;
  song: Record<string, unknown> | string;
  likes: number;
  dislikes: number;
  stars: number;
  played_at: string | Date;
}

/** The rooms' recent songs. */
export class PgSongPlayStore {
  constructor(private readonly orm: MikroORM) {}

  /** Records a play once (by its id): a redelivered event changes nothing. */
  async record(play: SongPlay, em: EntityManager = this.orm.em.fork()): Promise<void> {
    await em.execute(
      `insert into "song_play" ("play_id", "room_uuid", "dj_uuid", "song", "likes", "dislikes", "stars", "played_at")
       values (?, ?, ?, ?, ?, ?, ?, ?) on conflict ("play_id") do nothing`,
      [
        play.playId,
        play.roomUuid,
        play.djUuid,
        JSON.stringify(play.song),
        play.voteCounts.likes,
        play.voteCounts.dislikes,
        play.voteCounts.stars,
        play.playedAt,
      ],
    );
  }

  async recent(roomUuid: string, page: { limit: number; offset: number }): Promise<{ plays: SongPlay[]; total: number }> {
    const em = this.orm.em.fork();
    const rows = await em.execute<Array<Row & { total: string }>>(
      `select *, count(*) over () as "total" from "song_play" where "room_uuid" = ? order by "played_at" desc, "play_id" limit ? offset ?`,
      [roomUuid, page.limit, page.offset],
    );
    return {
      plays: rows.map((r) => ({
        playId: r.play_id,
        roomUuid: r.room_uuid,
        djUuid: r.dj_uuid,
        song: typeof r.song === 'string' ? (JSON.parse(r.song) as Record<string, unknown>) : r.song,
        voteCounts: { likes: r.likes, dislikes: r.dislikes, stars: r.stars },
        playedAt: new Date(r.played_at),
      })),
      total: Number(rows[0]?.total ?? 0),
    };
  }
}
