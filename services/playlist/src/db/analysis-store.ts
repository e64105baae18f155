import type { MikroORM } from '@mikro-orm/postgresql';
import type { AudioAnalysis } from '../providers/cyanite.js';

/** Analyses of catalogue songs (one library track each). */
export class PgAnalysisStore {
  constructor(private readonly orm: MikroORM) {}

  async status(libraryTrackId: string): Promise<string | null> {
    const rows = await this.orm.em
      .fork()
      .execute<Array<{ status: string }>>(`select "status" from "song_analysis" where "library_track_id" = ?`, [libraryTrackId]);
    return rows[0]?.status ?? null;
  }

  /** Records the outcome for the song with this uuid (false when there is no such song); a finished one fills an empty genre. */
  async record(libraryTrackId: string, songUuid: string, analysis: AudioAnalysis | null): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(songUuid)) return false;
    return this.orm.em.fork().transactional(async (em) => {
      const [song] = await em.execute<Array<{ id: number }>>(`select "id" from "song" where "song_id" = ? for update`, [songUuid]);
      if (!song) return false;
      await em.execute(
        `insert into "song_analysis" ("library_track_id", "song_id", "status", "genre_tags", "mood_tags", "bpm", "updated_at")
         values (?, ?, ?, ?, ?, ?, now())
         on conflict ("song_id") do update set "library_track_id" = excluded."library_track_id", "status" = excluded."status",
           "genre_tags" = excluded."genre_tags", "mood_tags" = excluded."mood_tags", "bpm" = excluded."bpm", "updated_at" = now()`,
        [
          libraryTrackId,
          song.id,
          analysis ? 'FINISHED' : 'FAILED',
          JSON.stringify(analysis?.genreTags ?? []),
          JSON.stringify(analysis?.moodTags ?? []),
          analysis?.bpm ?? null,
        ],
      );
      const genre = analysis?.genreTags[0];
      if (genre) {
        const name = genre.charAt(0).toUpperCase() + genre.slice(1);
        await em.execute(`update "song" set "genre" = ?, "updated_at" = now() where "id" = ? and "genre" = ''`, [name, song.id]);
        await em.execute(`insert into "genre" ("name") values (?) on conflict (lower("name")) do nothing`, [name]);
      }
      return true;
    });
  }

  async forSong(songUuid: string): Promise<{ status: string; genreTags: string[]; moodTags: string[]; bpm: number | null } | null> {
    const rows = await this.orm.em
      .fork()
      .execute<Array<{ status: string; genre_tags: string[]; mood_tags: string[]; bpm: number | null }>>(
        `select a."status", a."genre_tags", a."mood_tags", a."bpm" from "song_analysis" a join "song" s on s."id" = a."song_id" where s."song_id" = ?`,
        [songUuid],
      );
    const r = rows[0];
    return r ? { status: r.status, genreTags: r.genre_tags, moodTags: r.mood_tags, bpm: r.bpm } : null;
  }
}
