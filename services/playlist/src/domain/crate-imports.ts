import { AppError, badRequest, type Logger } from '@spinroom/platform';
import type { PgCrateStore } from '../db/crate-store.js';
import type { CrateImportJob, PgCrateImportStore } from '../db/import-store.js';
import type { PgSongStore } from '../db/song-store.js';
import type { MusicProviders } from '../providers/index.js';
import { providerOff, type PlaylistProvider, type ProviderTrack } from '../providers/provider.js';
import { CRATE_SONGS_MAX, type Crate } from './crate.js';
import type { Crates } from './crates.js';
import { fromProviderTrack } from './song-data.js';
import { streamCountry } from './streams.js';

/** The providers whose playlists can be imported. */
export const IMPORTABLE_PROVIDERS = ['spotify', 'apple'] as const;
export const IMPORT_MAX_ATTEMPTS = 3;

export interface CrateImportSettings {
  /** How long a worker holds a job before another may take it (seconds). */
  leaseSeconds: number;
  /** The first retry's delay after a provider failure (doubled each time). */
  retryDelayMs: number;
}

/**
 * Crate imports: a new crate IN_PROGRESS with its job staged in the same
 * transaction; a worker reads the provider playlist, catalogues its tracks by
 * the sameness rule and fills the crate in one transaction, so a retried job
 * never adds a song twice. A playlist the provider does not know, or a
 * provider failing three times, leaves the crate FAILED.
 */
export class CrateImports {
  constructor(
    private readonly deps: {
      crates: Crates;
      crateStore: PgCrateStore;
      songs: PgSongStore;
      jobs: PgCrateImportStore;
      providers: MusicProviders;
      settings: CrateImportSettings;
      logger: Logger;
    },
  ) {}

  async start(caller: string, input: { musicProvider: string; playlistId: string; crateName?: string; country?: string }): Promise<Crate> {
    const provider = this.provider(input.musicProvider);
    if (!provider.enabled) throw providerOff(provider.label);
    const playlistId = input.playlistId.trim();
    if (!playlistId || playlistId.length > 255) throw badRequest('playlistId must be 1 to 255 characters');
    const country = streamCountry(input.country ?? '');
    return this.deps.crates.create(caller, { crateName: input.crateName }, (em, crate) =>
      this.deps.jobs.enqueue(em, { crateId: crate.id, musicProvider: input.musicProvider, playlistId, country }),
    );
  }

  /** Runs the next due job; false when there was none. */
  async runNext(): Promise<boolean> {
    const job = await this.deps.jobs.claim(this.deps.settings.leaseSeconds);
    if (!job) return false;
    await this.run(job);
    return true;
  }

  private async run(job: CrateImportJob): Promise<void> {
    const { jobs, logger } = this.deps;
    let tracks: ProviderTrack[] | null;
    try {
      tracks = await this.provider(job.musicProvider).playlistTracks(job.playlistId, { country: job.country, max: CRATE_SONGS_MAX });
    } catch (error) {
      const lasting = error instanceof AppError && error.status < 500;
      if (lasting || job.attempts >= IMPORT_MAX_ATTEMPTS) {
        logger.warn(
          { crateImport: job.id, attempts: job.attempts, err: error instanceof Error ? error.message : String(error) },
          'Crate import failed',
        );
        await jobs.fail(job);
      } else {
        await jobs.retryLater(job, this.deps.settings.retryDelayMs * 2 ** (job.attempts - 1));
      }
      return;
    }
    if (!tracks) {
      logger.info({ crateImport: job.id, playlistId: job.playlistId }, 'Crate import failed: the provider does not know the playlist');
      await jobs.fail(job);
      return;
    }
    await this.deps.crateStore.fork().transactional(async (em) => {
      const [crate] = await em.execute<Array<{ id: number }>>(`select "id" from "crate" where "id" = ? for update`, [job.crateId]);
      if (!crate) return; // deleted meanwhile (its job went with it)
      const songIds: number[] = [];
      for (const track of tracks) songIds.push((await this.deps.songs.findOrCreate(em, fromProviderTrack(track))).id);
      await this.deps.crateStore.insertEntries(em, job.crateId, songIds, true);
      await jobs.finish(em, job, 'COMPLETE');
    });
  }

  private provider(name: string): PlaylistProvider {
    if (!(IMPORTABLE_PROVIDERS as readonly string[]).includes(name)) {
      throw badRequest(`Playlists can be imported from ${IMPORTABLE_PROVIDERS.join(' and ')} only`);
    }
    return this.deps.providers[name as (typeof IMPORTABLE_PROVIDERS)[number]];
  }
}

/** Polls for due imports (and is woken when one is started); one job at a time per process. */
export function startCrateImportWorker(imports: CrateImports, options: { pollMs: number; logger: Logger }) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const loop = async (): Promise<void> => {
    timer = undefined;
    let more = true;
    while (more && !stopped) {
      try {
        more = await imports.runNext();
      } catch (error) {
        options.logger.error({ err: error }, 'Crate import worker failed');
        more = false;
      }
    }
    if (!stopped) timer = setTimeout(tick, options.pollMs);
  };
  const tick = () => {
    running = running.then(loop);
  };
  tick();
  return {
    /** A job was just staged: look now instead of at the next poll. */
    wake() {
      if (stopped || !timer) return;
      clearTimeout(timer);
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
