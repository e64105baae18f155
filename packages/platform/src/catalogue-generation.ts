import type { Redis } from 'ioredis';

/**
 * The song catalogue's generation: a Redis counter the playlist service
 * advances after a change to a song that search can return has committed.
 * Answers to searches are kept under the generation read before they were
 * asked, so a reader that sees a generation never serves an answer older than
 * the changes it counts.
 */
export const CATALOGUE_GENERATION_KEY = 'playlist:catalogue:generation';

export interface GenerationWatch {
  /** The generation last read; undefined while Redis has not answered the last read (nothing may be reused then). */
  current(): number | undefined;
  stop(): void;
}

/**
 * Reads the catalogue's generation every `everyMs`: a change shows to this
 * process at most that long after the playlist service counted it. A failed
 * read forgets the generation until the next one succeeds.
 */
export function watchCatalogueGeneration(redis: Redis, options: { everyMs: number }): GenerationWatch {
  let generation: number | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const read = async () => {
    try {
      generation = Number((await redis.get(CATALOGUE_GENERATION_KEY)) ?? 0);
    } catch {
      generation = undefined;
    }
    if (!stopped) timer = setTimeout(() => void read(), options.everyMs).unref();
  };
  void read();
  return {
    current: () => generation,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
