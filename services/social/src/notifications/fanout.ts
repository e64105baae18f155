import type { Logger } from '@spinroom/platform';
import type { PgNotificationStore } from './store.js';

/**
 * Runs pending fan-outs batch by batch (PgNotificationStore.fanOutBatch):
 * a DJ's 10,000 fans are read 500 at a time by keyset, never loaded whole.
 * Every replica runs one; SKIP LOCKED gives each fan-out to one at a time.
 */
export class FanOutWorker {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly store: PgNotificationStore,
    private readonly afterBatch: () => void,
    private readonly logger: Logger,
    private readonly options: { batchSize: number; intervalMs: number; now?: () => Date },
  ) {}

  /** Writes one batch; how many recipients (0: nothing pending). */
  async runOnce(): Promise<number> {
    const written = await this.store.fanOutBatch(this.options.batchSize, this.options.now?.() ?? new Date());
    if (written > 0) this.afterBatch();
    return written;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        let written = 0;
        try {
          written = await this.runOnce();
        } catch (error) {
          this.logger.warn({ err: error }, 'notification fan-out failed; retrying');
        }
        if (written === 0 && this.running) await this.sleep(this.options.intervalMs);
      }
    })();
  }

  /** Looks for fan-outs now (one was just created) instead of at the next tick. */
  nudge(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
