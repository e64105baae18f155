import type { MikroORM } from '@mikro-orm/postgresql';

export interface ClaimedJob {
  songId: string;
  /** This attempt's number, from 1. */
  attempt: number;
}

/**
 * The transcoding queue in `transcode_job`. A worker claims the oldest due
 * job (or one whose lease ran out: its worker died) with FOR UPDATE SKIP
 * LOCKED, so replicas never take the same job, and holds a lease it renews
 * while ffmpeg runs. Outcomes are written by the song store with the song's
 * change, guarded by the lease.
 */
export class PgJobQueue {
  constructor(private readonly orm: MikroORM) {}

  async claim(worker: string, leaseMs: number): Promise<ClaimedJob | null> {
    const rows = await this.orm.em.fork().execute<{ song_id: string; attempts: number }[]>(
      `with next as (
         select "song_id" from "transcode_job"
         where ("state" = 'queued' and "run_after" <= now()) or ("state" = 'running' and "locked_until" < now())
         order by "run_after", "created_at"
         limit 1
         for update skip locked)
       update "transcode_job" as j
       set "state" = 'running', "attempts" = j."attempts" + 1, "locked_by" = ?,
           "locked_until" = now() + (? * interval '1 millisecond'), "updated_at" = now()
       from next where j."song_id" = next."song_id"
       returning j."song_id", j."attempts"`,
      [worker, leaseMs],
    );
    const row = rows[0];
    return row ? { songId: row.song_id, attempt: row.attempts } : null;
  }

  /** Extends the lease; false when this worker no longer holds the job. */
  async renew(songId: string, worker: string, leaseMs: number): Promise<boolean> {
    const rows = await this.orm.em.fork().execute<{ song_id: string }[]>(
      `update "transcode_job" set "locked_until" = now() + (? * interval '1 millisecond'), "updated_at" = now()
       where "song_id" = ? and "state" = 'running' and "locked_by" = ? returning "song_id"`,
      [leaseMs, songId, worker],
    );
    return rows.length > 0;
  }

  /** Gives a job back untouched (the worker is stopping): due at once, and the attempt does not count. */
  async release(songId: string, worker: string): Promise<void> {
    await this.orm.em.fork().execute(
      `update "transcode_job" set "state" = 'queued', "attempts" = greatest("attempts" - 1, 0), "locked_by" = null,
         "locked_until" = null, "run_after" = now(), "updated_at" = now()
       where "song_id" = ? and "state" = 'running' and "locked_by" = ?`,
      [songId, worker],
    );
  }
}
