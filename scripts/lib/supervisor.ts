import type { ServiceProcess } from './processes.js';

export interface RestartPolicy {
  /** The wait before the first restart; each crash in a row doubles it. */
  initialDelayMs: number;
  /** The longest wait between restarts. */
  maxDelayMs: number;
  /** A process that ran this long before it exited was healthy: its next restart waits `initialDelayMs` again. */
  healthyAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = { initialDelayMs: 1_000, maxDelayMs: 30_000, healthyAfterMs: 60_000 };

/** The wait before restarting after `crashes` crashes in a row (1 for the first). */
export function restartDelay(crashes: number, policy: RestartPolicy): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.max(0, crashes - 1));
}

interface Supervised {
  name: string;
  start: () => ServiceProcess;
  current: ServiceProcess;
  startedAt: number;
  /** Crashes in a row since the last healthy run. */
  crashes: number;
  restarts: number;
  timer?: NodeJS.Timeout;
}

/**
 * Keeps processes running: one that exits on its own is started again after
 * an exponential backoff (capped; back to the first step once a run lasted
 * `healthyAfterMs`), and the others are left alone. `stop()` stops them all
 * and restarts nothing.
 */
export class Supervisor {
  private readonly supervised: Supervised[] = [];
  private stopping = false;

  constructor(
    private readonly policy: RestartPolicy = DEFAULT_RESTART_POLICY,
    private readonly log: (line: string) => void = (line) => console.log(line),
  ) {}

  /** Starts a process under supervision; `start` is called again for every restart. */
  add(name: string, start: () => ServiceProcess): ServiceProcess {
    const entry: Supervised = { name, start, current: start(), startedAt: Date.now(), crashes: 0, restarts: 0 };
    this.supervised.push(entry);
    this.watch(entry);
    return entry.current;
  }

  /** The process now running under `name` (a new one after each restart). */
  process(name: string): ServiceProcess | undefined {
    return this.supervised.find((s) => s.name === name)?.current;
  }

  /** How many times `name` was restarted. */
  restarts(name: string): number {
    return this.supervised.find((s) => s.name === name)?.restarts ?? 0;
  }

  /** Stops every process, the last added first; nothing restarts afterwards. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const entry of this.supervised) clearTimeout(entry.timer);
    await Promise.all([...this.supervised].reverse().map((entry) => entry.current.stop()));
  }

  private watch(entry: Supervised): void {
    const child = entry.current.child;
    child.once('exit', (code, signal) => {
      if (this.stopping) return;
      const ranMs = Date.now() - entry.startedAt;
      entry.crashes = ranMs >= this.policy.healthyAfterMs ? 1 : entry.crashes + 1;
      const delay = restartDelay(entry.crashes, this.policy);
      this.log(
        `${entry.name} exited (${signal ?? `code ${code}`}) after ${formatMs(ranMs)}; restarting it in ${formatMs(delay)}` +
          (entry.crashes > 1 ? ` (crash ${entry.crashes} in a row)` : ''),
      );
      entry.timer = setTimeout(() => this.restart(entry), delay);
    });
  }

  private restart(entry: Supervised): void {
    if (this.stopping) return;
    try {
      entry.current = entry.start();
    } catch (error) {
      // Could not even spawn it (e.g. bundling failed): try again after the next step of the backoff.
      entry.crashes += 1;
      const delay = restartDelay(entry.crashes, this.policy);
      this.log(`${entry.name} could not be restarted (${(error as Error).message}); trying again in ${formatMs(delay)}`);
      entry.timer = setTimeout(() => this.restart(entry), delay);
      return;
    }
    entry.startedAt = Date.now();
    entry.restarts += 1;
    this.log(`${entry.name} restarted (pid ${entry.current.child.pid}, restart ${entry.restarts})`);
    this.watch(entry);
  }
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}
