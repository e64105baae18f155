// Run by idle-memory.test.ts in a process of its own: start-up allocations that
// grow V8's young generation, then `idle` (only waits) or `busy` (the event
// loop blocked most of every interval); prints the young generation's size
// before and after, and what the reducer logged.
import { getHeapSpaceStatistics } from 'node:v8';
import { createLogger } from '@spinroom/platform/core';
import { reduceMemoryWhenIdle } from '../src/idle-memory.js';

const mode = process.argv[2];
const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.physical_space_size ?? 0;
let kept: unknown[] = [];
for (let i = 0; i < 400_000; i++) kept.push({ i, s: `x${i}`, a: [i] });
const before = newSpace();
kept = [];
const logs: unknown[] = [];
const logger = createLogger('idle-memory-test', { level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
const stop = reduceMemoryWhenIdle({ logger, intervalMs: 200, minGapMs: 0 });
let busy: NodeJS.Timeout | undefined;
if (mode === 'busy') {
  busy = setInterval(() => {
    const until = performance.now() + 60;
    while (performance.now() < until);
  }, 20);
}
setTimeout(() => {
  stop();
  clearInterval(busy);
  console.log(JSON.stringify({ before, after: newSpace(), logs }));
}, 1_500);
