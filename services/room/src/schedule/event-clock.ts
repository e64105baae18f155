import type { Logger } from '@spinroom/platform';
import type { Communities } from '../domain/communities.js';

/**
 * Events going live at their start, run by every room-service replica: each
 * beat claims the events whose start has come (`Communities.goLiveDue`, rows
 * locked with skip locked and marked in the transaction that makes the room
 * live), so each event goes live once across replicas, and one that came due
 * while no replica ran goes live at the next start. Nothing is kept in memory.
 */
export class EventClock {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly communities: Communities,
    private readonly logger: Logger,
    private readonly pollMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.beat(), this.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass (until no due event is left); skipped while the previous one still runs. */
  async beat(): Promise<void> {
    if (this.running) return;
    this.running = (async () => {
      try {
        while ((await this.communities.goLiveDue()) > 0) {
          // more may be due: the next batch
        }
      } catch (error) {
        this.logger.error({ err: error }, 'event clock failed');
      }
    })();
    try {
      await this.running;
    } finally {
      this.running = undefined;
    }
  }
}
