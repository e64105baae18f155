import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@spinroom/platform';
import type { ClaimedJob, PgJobQueue } from '../db/job-queue.js';
import { HLS, objectKeys, playlistDurationMs } from '../domain/hls.js';
import type { Songs } from '../domain/songs.js';
import type { Transcoder } from '../media/transcoder.js';
import type { ObjectStore } from '../storage/object-store.js';
import type { ScratchSpace } from '../storage/scratch.js';

export interface WorkerOptions {
  /** Jobs run at once. */
  concurrency: number;
  pollMs: number;
  leaseMs: number;
  timeoutMs: number;
  maxAttempts: number;
}

class Stopping extends Error {}
class LeaseLost extends Error {}

/**
 * Runs transcoding jobs off the request path: claims a due job, copies the
 * original to a work folder, runs ffmpeg while renewing the lease, puts the
 * HLS output in the object store (the playlist last), and records the outcome.
 * Stopping kills ffmpeg and hands running jobs back, so they run again at the
 * next start; a crash leaves them to whoever claims them when the lease ends.
 */
export class TranscodeWorker {
  /** Unique per process: leases name their holder. */
  readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private stopping = false;
  private loops: Promise<void>[] = [];
  private readonly running = new Set<AbortController>();
  private readonly sleepers = new Set<() => void>();

  constructor(
    private readonly queue: PgJobQueue,
    private readonly songs: Songs,
    private readonly objects: ObjectStore,
    private readonly scratch: ScratchSpace,
    private readonly transcoder: Transcoder,
    private readonly logger: Logger,
    private readonly options: WorkerOptions,
  ) {}

  start(): void {
    for (let i = 0; i < this.options.concurrency; i += 1) this.loops.push(this.loop());
  }

  /** A job was queued: wake an idle loop now instead of at its next poll. */
  nudge(): void {
    const [first] = this.sleepers;
    first?.();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const controller of this.running) controller.abort(new Stopping('the service is stopping'));
    for (const wake of this.sleepers) wake();
    await Promise.all(this.loops);
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let job: ClaimedJob | null = null;
      try {
        job = await this.queue.claim(this.id, this.options.leaseMs);
      } catch (error) {
        this.logger.warn({ err: error }, 'could not claim a transcoding job; retrying');
      }
      if (job) await this.run(job);
      else await this.sleep(this.options.pollMs);
    }
  }

  private async run(job: ClaimedJob): Promise<void> {
    const log = this.logger.child({ songId: job.songId, attempt: job.attempt });
    const controller = new AbortController();
    this.running.add(controller);
    const renewal = setInterval(
      () => {
        this.queue
          .renew(job.songId, this.id, this.options.leaseMs)
          .then((held) => held || controller.abort(new LeaseLost('the job was claimed by another worker')))
          .catch((error: unknown) => log.warn({ err: error }, 'lease renewal failed'));
      },
      Math.max(250, Math.floor(this.options.leaseMs / 3)),
    );
    let work: { path: string; remove(): Promise<void> } | undefined;
    try {
      if (job.attempt > this.options.maxAttempts) {
        // Claimed again after its workers kept dying mid-way: give up rather than loop.
        await this.songs.transcodeFailed(job.songId, this.id, job.attempt, 'transcoding was interrupted too many times');
        return;
      }
      const song = await this.songs.songForTranscoding(job.songId);
      if (!song) return; // deleted meanwhile (its job went with it)
      work = await this.scratch.workDir(`transcode-${song.id}`);
      const input = join(work.path, 'input');
      const output = join(work.path, 'hls');
      await this.objects.copyToFile(objectKeys.original(song.id), input);
      const started = Date.now();
      await this.transcoder.transcode({
        inputPath: input,
        outputDir: output,
        secretsDir: join(work.path, 'secrets'),
        key: song.hlsKey,
        iv: song.hlsIv,
        signal: controller.signal,
        timeoutMs: this.options.timeoutMs,
      });
      controller.signal.throwIfAborted();
      const files = await readdir(output);
      const segments = files.filter((name) => HLS.segmentName.test(name)).sort();
      const playlist = await readFile(join(output, HLS.playlistName), 'utf8');
      if (segments.length === 0 || !playlist.includes('#EXT-X-KEY:METHOD=AES-128') || playlistDurationMs(playlist) <= 0) {
        throw new Error('ffmpeg produced no encrypted segments');
      }
      for (const name of segments) await this.objects.putFile(objectKeys.segment(song.id, name), join(output, name));
      await this.objects.putFile(objectKeys.playlist(song.id), join(output, HLS.playlistName));
      const result = await this.songs.transcodeSucceeded(song.id, this.id);
      if (!result) await this.objects.deletePrefix(objectKeys.hlsPrefix(song.id)); // deleted while transcoding
      log.info({ ms: Date.now() - started, segments: segments.length, status: result?.song.status }, 'song transcoded');
    } catch (error) {
      const reason = controller.signal.aborted ? controller.signal.reason : error;
      if (reason instanceof Stopping) {
        await this.queue.release(job.songId, this.id).catch((e: unknown) => log.warn({ err: e }, 'could not release the job'));
        log.info('transcoding interrupted by shutdown; the job runs again at the next start');
      } else if (reason instanceof LeaseLost) {
        log.warn('lost the lease of a transcoding job; leaving it to its new worker');
      } else {
        const message = reason instanceof Error ? reason.message : String(reason);
        log.warn({ err: reason }, 'transcoding failed');
        await this.songs
          .transcodeFailed(job.songId, this.id, job.attempt, message.slice(0, 1000))
          .catch((e: unknown) => log.error({ err: e }, 'could not record a transcoding failure'));
      }
    } finally {
      clearInterval(renewal);
      this.running.delete(controller);
      await work?.remove();
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }
}
