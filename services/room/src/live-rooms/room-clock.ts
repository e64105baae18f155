import type { Logger } from '@spinroom/platform';
import type { LiveRooms } from './live-rooms.js';

/**
 * The rooms' server clock, run by every room-service replica: rooms whose
 * song has ended (or whose stage waits, or whose AFK DJ is due) advance, and
 * users whose last connection closed long enough ago leave. Replicas race
 * freely; the store's compare-and-set lets exactly one of them win each change.
 * Effects that stored changes left pending (a crashed writer's) run again,
 * from the first beat on, apart from the beat so a slow one holds no song up.
 */
export class RoomClock {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private lastSweep = 0;
  private lastEffectsSweep = 0;
  private replaying: Promise<void> | undefined;

  constructor(
    private readonly rooms: LiveRooms,
    private readonly logger: Logger,
    private readonly options: { pollMs: number; staleSweepMs: number; effectsSweepMs: number },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.beat(), this.options.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    while (this.running) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** One pass; skipped while the previous one still runs. */
  async beat(): Promise<void> {
    if (this.running) return;
    this.running = true;
    if (!this.replaying && Date.now() - this.lastEffectsSweep >= this.options.effectsSweepMs) {
      this.lastEffectsSweep = Date.now();
      this.replaying = this.rooms
        .replayEffects()
        .catch((error: unknown) => this.logger.error({ err: error }, 'effects sweep failed'))
        .finally(() => {
          this.replaying = undefined;
        });
    }
    try {
      const due = await this.rooms.dueRooms();
      await Promise.all(
        due.map((roomUuid) =>
          this.rooms.tick(roomUuid).catch((error: unknown) => this.logger.error({ err: error, roomUuid }, 'room tick failed')),
        ),
      );
      await this.rooms.sweepDepartures();
      if (Date.now() - this.lastSweep >= this.options.staleSweepMs) {
        this.lastSweep = Date.now();
        await this.rooms.sweepStaleConnections();
      }
    } catch (error) {
      this.logger.error({ err: error }, 'room clock failed');
    } finally {
      this.running = false;
    }
  }
}
