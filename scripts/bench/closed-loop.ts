// Closed-loop load for the benchmarks (ledger, fan-out): `workers` loops each
// run `step` again as soon as it ends, through a warm-up and then a measured
// window, whose latencies, errors and CPU per operation (per process group,
// cpu.ts) are the result.
import { startCpuWindow, type CpuGroup } from './cpu.js';

export interface ClosedLoopResult {
  label: string;
  ops: number;
  seconds: number;
  /** Milliseconds, sorted. */
  latencies: number[];
  errors: number;
  cpuMsPerOp: Record<string, number>;
  machineBusy: number;
}

/** A step: loop `worker`'s one operation (or several), each reported through `record` with its milliseconds. */
export type ClosedLoopStep = (record: (ms: number) => void, worker: number) => Promise<void>;

export async function closedLoop(options: {
  label: string;
  workers: number;
  warmupSeconds: number;
  durationSeconds: number;
  cpuGroups: CpuGroup[];
  step: ClosedLoopStep;
}): Promise<ClosedLoopResult> {
  const { label } = options;
  let measuring = false;
  let stop = false;
  const latencies: number[] = [];
  let errors = 0;
  const record = (ms: number) => {
    if (measuring) latencies.push(ms);
  };
  const loops = Array.from({ length: options.workers }, async (_, worker) => {
    while (!stop) {
      try {
        await options.step(record, worker);
      } catch (error) {
        if (measuring) errors += 1;
        if (errors === 1 && measuring) console.error(`${label}:`, error);
      }
    }
  });
  const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  await sleep(options.warmupSeconds);
  const endCpu = startCpuWindow(options.cpuGroups);
  const started = performance.now();
  measuring = true;
  await sleep(options.durationSeconds);
  measuring = false;
  const seconds = (performance.now() - started) / 1000;
  const cpu = endCpu();
  stop = true;
  await Promise.all(loops);
  const ops = latencies.length;
  const cpuMsPerOp = Object.fromEntries(Object.entries(cpu.cores).map(([name, cores]) => [name, ops ? (cores * seconds * 1000) / ops : 0]));
  return { label, ops, seconds, latencies: latencies.sort((a, b) => a - b), errors, cpuMsPerOp, machineBusy: cpu.machineBusyPercent };
}

/** Runs `call` and records its milliseconds. */
export async function timed(record: (ms: number) => void, call: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await call();
  record(performance.now() - started);
}
