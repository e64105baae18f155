// Gives memory back to the system when the BFF is idle.
//
// V8 grows the young generation to its maximum (two semi-spaces: 2 x 16 MiB
// with the chart's --max-semi-space-size=16) during start-up, whose
// allocations mostly survive, and its memory reducer, which would shrink it and
// release the pages the old generation no longer uses once allocation stops,
// never runs in an idle Node 24 process: with no garbage collection to measure
// it by, it takes the allocation rate for high and waits again, every 8 s,
// forever (`node --trace-memory-reducer` on a script that allocates 60 MB and
// then only waits: "Memory reducer: high alloc, foreground"). So the BFF sits at
// its start-up peak until traffic comes (BENCHMARKS.md, "Memory again").
//
// This does what the memory reducer would: when the event loop has been idle
// for a whole interval and the heap holds enough it could give back, one
// memory-reducing full collection (V8's last-resort flavour: the young
// generation shrunk, pooled pages released), at most once a minute. It costs a
// pause of 50-150 ms at a moment when nothing is waiting.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { Logger } from '@spinroom/platform/core';

type GcFunction = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/** V8's `gc` (--expose-gc), got without exposing it to the process's own code. */
function memoryReducingCollection(): GcFunction | undefined {
  const exposed = (globalThis as { gc?: GcFunction }).gc;
  if (exposed) return exposed;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as GcFunction;
    setFlagsFromString('--no-expose-gc');
    return typeof gc === 'function' ? gc : undefined;
  } catch {
    return undefined;
  }
}

/** What the heap has committed and does not use: what a memory-reducing collection could give back. */
export function heapSlackBytes(): number {
  let slack = 0;
  for (const space of getHeapSpaceStatistics()) slack += Math.max(0, space.physical_space_size - space.space_used_size);
  return slack;
}

export interface IdleMemoryOptions {
  logger: Logger;
  /** How often the event loop's use is looked at; idle means below `idleUtilization` over the whole interval. */
  intervalMs?: number;
  idleUtilization?: number;
  /** The least the heap must be able to give back. */
  minSlackBytes?: number;
  /** The least time between two collections. */
  minGapMs?: number;
}

/** Starts the idle check; returns its stop. Does nothing where V8's collection cannot be had. */
export function reduceMemoryWhenIdle(options: IdleMemoryOptions): () => void {
  const { logger, intervalMs = 5_000, idleUtilization = 0.02, minSlackBytes = 8 * 2 ** 20, minGapMs = 60_000 } = options;
  const gc = memoryReducingCollection();
  if (!gc) {
    logger.warn('no memory-reducing collection available: the heap keeps its peak when idle');
    return () => undefined;
  }
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  let lastCollection = Number.NEGATIVE_INFINITY;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const used = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (used >= idleUtilization || performance.now() - lastCollection < minGapMs) return;
    const slack = heapSlackBytes();
    if (slack < minSlackBytes) return;
    const before = process.memoryUsage.rss();
    const started = performance.now();
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    lastCollection = performance.now();
    // The collection's own time is not idleness to measure the next interval by.
    last = performance.eventLoopUtilization();
    logger.debug(
      {
        ms: Math.round(lastCollection - started),
        slackMiB: Math.round(slack / 2 ** 20),
        rssMiB: Math.round(before / 2 ** 20),
        afterMiB: Math.round(process.memoryUsage.rss() / 2 ** 20),
      },
      'idle: memory-reducing collection',
    );
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
