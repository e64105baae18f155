// A fixed-rate (open-loop) load generator: requests are sent on a schedule,
// evenly spaced, whether or not earlier ones have been answered, and each
// latency is measured from the moment its request was due. This shows latency
// below saturation; autocannon's own rate limiting sends each connection's
// quota in a burst at the start of every second, which measures bursts instead.
import { Agent, request } from 'node:http';

export interface OpenLoopOptions {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Requests per second, evenly spaced. */
  rate: number;
  seconds: number;
  /** Keep-alive connections at most; requests beyond wait for one (and that wait counts). */
  connections: number;
  timeoutMs?: number;
}

export interface OpenLoopResult {
  /** Milliseconds from each request's due time to its complete response, sorted. */
  latencies: number[];
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  durationSeconds: number;
}

export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const url = new URL(options.url);
  const total = Math.round(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  const latencies: number[] = [];
  const result = { ok: 0, non2xx: 0, errors: 0, timeouts: 0 };
  const pending: Promise<void>[] = [];

  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const req = request(
        url,
        { method: options.method ?? 'GET', headers: options.headers, agent, timeout: options.timeoutMs ?? 10_000 },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - due);
            if (res.statusCode! >= 200 && res.statusCode! < 300) result.ok += 1;
            else result.non2xx += 1;
            resolve();
          });
        },
      );
      req.on('timeout', () => {
        result.timeouts += 1;
        req.destroy(new Error('timeout'));
      });
      req.on('error', () => {
        result.errors += 1;
        resolve();
      });
      req.end(options.body);
    });

  const start = performance.now();
  let sent = 0;
  while (sent < total) {
    const now = performance.now();
    // Send everything due by now (catching up if a timer fired late), then sleep to the next due time.
    while (sent < total && start + sent * interval <= now) {
      pending.push(send(start + sent * interval));
      sent += 1;
    }
    const next = start + sent * interval;
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
  await Promise.all(pending);
  const durationSeconds = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { latencies, ...result, durationSeconds };
}

/** The p-th percentile (0-100) of sorted values, nearest rank. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
