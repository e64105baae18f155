import type { Logger } from '@spinroom/platform';

/** The pruning's settings when the environment names none: a week's retention, hourly, 1000 rows a delete. */
export const ROOM_EFFECT_DEFAULTS = { retentionHours: 168, everyMs: 3_600_000, batch: 1000 };

/** Where the room effects applied here are kept (`room_effect`, PgCrateStore). */
export interface AppliedEffects {
  /** Forgets up to `limit` effects applied before `before`; how many it forgot. */
  pruneEffects(before: Date, limit: number): Promise<number>;
}

/**
 * Forgets the room effects applied more than `retentionMs` ago, one batch of
 * `batch` rows at a time until none is left (short transactions, whatever the
 * backlog); how many it forgot. The room service replays an effect for a day
 * at most, so a retention past that never lets a replay apply one twice.
 */
export async function pruneRoomEffects(
  effects: AppliedEffects,
  options: { retentionMs: number; batch: number; now?: number },
): Promise<number> {
  const before = new Date((options.now ?? Date.now()) - options.retentionMs);
  let pruned = 0;
  for (;;) {
    const forgotten = await effects.pruneEffects(before, options.batch);
    pruned += forgotten;
    if (forgotten < options.batch) return pruned;
  }
}

/** Prunes the applied room effects every `everyMs` (every replica: they skip each other's rows); `stop()` waits for a prune in progress. */
export function startRoomEffectPruner(
  effects: AppliedEffects,
  options: { retentionMs: number; batch: number; everyMs: number; logger: Logger },
): { stop(): Promise<void> } {
  let pruning: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    pruning = pruning.then(() =>
      pruneRoomEffects(effects, options).then(
        (pruned) => {
          if (pruned > 0) options.logger.info({ pruned }, 'room effects pruned');
        },
        (error: unknown) => options.logger.error({ err: error }, 'room effect pruning failed'),
      ),
    );
  }, options.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await pruning;
    },
  };
}
