import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { ImportStatus } from '../domain/crate.js';

/** A crate import job as a worker holds it. */
export interface CrateImportJob {
  id: number;
  crateId: number;
  musicProvider: string;
  playlistId: string;
  country: string;
  /** Including the current one. */
  attempts: number;
}

interface Row {
  id: number;
  crate_id: number;
  music_provider: string;
  playlist_id: string;
  country: string;
  attempts: number;
}

/**
 * Crate import jobs in PostgreSQL: claimed with FOR UPDATE SKIP LOCKED and a
 * lease, so replicas share them and a job held by a process that died is
 * taken again once its lease runs out.
 */
export class PgCrateImportStore {
  constructor(private readonly orm: MikroORM) {}

  async enqueue(em: EntityManager, job: Omit<CrateImportJob, 'id' | 'attempts'>): Promise<void> {
    await em.execute(`insert into "crate_import" ("crate_id", "music_provider", "playlist_id", "country") values (?, ?, ?, ?)`, [
      job.crateId,
      job.musicProvider,
      job.playlistId,
      job.country,
    ]);
  }

  /** The next due job, leased for `leaseSeconds`; null when none is due. */
  async claim(leaseSeconds: number): Promise<CrateImportJob | null> {
    const rows = await this.orm.em.fork().execute<Row[]>(
      `update "crate_import" set "attempts" = "attempts" + 1, "lease_until" = now() + make_interval(secs => ?)
       where "id" = (select "id" from "crate_import" where "run_after" <= now() and ("lease_until" is null or "lease_until" < now())
                     order by "id" for update skip locked limit 1)
       returning "id", "crate_id", "music_provider", "playlist_id", "country", "attempts"`,
      [leaseSeconds],
    );
    const r = rows[0];
    return r
      ? {
          id: r.id,
          crateId: r.crate_id,
          musicProvider: r.music_provider,
          playlistId: r.playlist_id,
          country: r.country,
          attempts: r.attempts,
        }
      : null;
  }

  /** The job ends: the crate takes its final status and the job row goes, in the caller's transaction. */
  async finish(em: EntityManager, job: CrateImportJob, status: Exclude<ImportStatus, 'IN_PROGRESS'>): Promise<void> {
    await em.execute(`update "crate" set "import_status" = ?, "updated_at" = now() where "id" = ?`, [status, job.crateId]);
    await em.execute(`delete from "crate_import" where "id" = ?`, [job.id]);
  }

  async fail(job: CrateImportJob): Promise<void> {
    await this.orm.em.fork().transactional((em) => this.finish(em, job, 'FAILED'));
  }

  /** Hands the job back, to be tried again after `delayMs`. */
  async retryLater(job: CrateImportJob, delayMs: number): Promise<void> {
    await this.orm.em
      .fork()
      .execute(`update "crate_import" set "lease_until" = null, "run_after" = now() + make_interval(secs => ?) where "id" = ?`, [
        delayMs / 1000,
        job.id,
      ]);
  }
}
