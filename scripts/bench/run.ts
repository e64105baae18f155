// What every benchmark harness needs around its measurements: the processes it
// started, stopped on exit or Ctrl+C; free ports; the revision it measured.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { repoRoot } from '../lib/infra.js';
import type { ServiceProcess } from '../lib/processes.js';

/** The harness's child processes, stopped (last started first) by `stopAll()` or on SIGINT/SIGTERM. */
export function benchProcesses<T extends Pick<ServiceProcess, 'name' | 'stop'>>() {
  const children: T[] = [];
  let stopping = false;
  async function stopAll(): Promise<void> {
    if (stopping) return;
    stopping = true;
    await Promise.all([...children].reverse().map((c) => c.stop().catch(() => undefined)));
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping the benchmark's processes...`);
      void stopAll().finally(() => process.exit(130));
    });
  }
  return {
    children,
    stopAll,
    get stopping() {
      return stopping;
    },
  };
}

export async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () => reject(new Error(`port ${port} is in use (a previous run still stopping? set BENCH_*_PORT to free ones)`)));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

/** The commit the code was measured at, and whether the working tree differed from it. */
export function gitRevision(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: repoRoot, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head} + uncommitted changes` : head;
  } catch {
    return 'unknown revision';
  }
}

/**
 * Every limit (README, Limits) lifted: a benchmark signs up, logs in, chats
 * and uploads from one address far faster than people would, and measures
 * the paths, not the throttling. Services ignore the variables not theirs.
 */
export const BENCH_LIMIT_ENV: Record<string, string> = Object.fromEntries(
  [
    'LIMIT_LOGIN_FAILURES_PER_ACCOUNT',
    'LIMIT_LOGIN_FAILURES_PER_ADDRESS',
    'LIMIT_GUEST_TOKENS_PER_ADDRESS',
    'LIMIT_SIGN_UPS_PER_ADDRESS',
    'LIMIT_ROOM_PASSWORD_FAILURES',
    'LIMIT_CHAT_MESSAGES_PER_USER',
    'LIMIT_UPLOADS_PER_USER',
  ].map((name) => [name, '1000000000/1h']),
);

/**
 * The services migrate their databases and fetch keys before they serve: a
 * bench's set-up call is tried again every 500 ms (two minutes at most), and
 * given up at once when one of its processes has exited (`exitedEarly` says which).
 */
export async function retryingSetup<T>(task: () => Promise<T>, exitedEarly: () => string | undefined): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await task();
    } catch (error) {
      const early = exitedEarly();
      if (early) throw new Error(early);
      if (attempt >= 240) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
