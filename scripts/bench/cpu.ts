// CPU accounting from /proc (Linux): how much of the machine each process
// used during a benchmark window, to show where the 2 cores went.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime of a process, in seconds; undefined when it is gone. */
function processCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name (which may contain spaces).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND; // utime, stime (fields 14, 15)
  } catch {
    return undefined;
  }
}

function parentPid(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** A PostgreSQL server's postmaster and every backend it forked. */
export function postgresPids(postmasterPid: number): number[] {
  const pids = [postmasterPid];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (Number.isInteger(pid) && parentPid(pid) === postmasterPid) pids.push(pid);
  }
  return pids;
}

/** Busy and total jiffies of the whole machine (all cores), from /proc/stat. */
function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0); // idle + iowait
  return { busy: total - idle, total };
}

export interface CpuGroup {
  name: string;
  /** Re-read at every snapshot (e.g. PostgreSQL backends come and go). */
  pids: () => number[];
}

export interface CpuReport {
  /** Share of the whole machine in use, 0-100 (100 = every core busy). */
  machineBusyPercent: number;
  /** Cores each group kept busy on average (1.0 = one core fully). */
  cores: Record<string, number>;
}

/** Starts a measurement window; call the returned function to end it. */
export function startCpuWindow(groups: CpuGroup[]): () => CpuReport {
  const started = Date.now();
  const machine = machineTicks();
  const before = new Map<string, Map<number, number>>();
  for (const group of groups) {
    const perPid = new Map<number, number>();
    for (const pid of group.pids()) {
      const seconds = processCpuSeconds(pid);
      if (seconds !== undefined) perPid.set(pid, seconds);
    }
    before.set(group.name, perPid);
  }
  return () => {
    const elapsed = (Date.now() - started) / 1000;
    const machineNow = machineTicks();
    const cores: Record<string, number> = {};
    for (const group of groups) {
      const start = before.get(group.name)!;
      let used = 0;
      for (const pid of group.pids()) {
        const seconds = processCpuSeconds(pid);
        if (seconds === undefined) continue;
        used += seconds - (start.get(pid) ?? 0); // a backend born in the window counts from 0
      }
      cores[group.name] = used / elapsed;
    }
    const busy = machineNow.busy - machine.busy;
    const total = machineNow.total - machine.total;
    return { machineBusyPercent: total > 0 ? (100 * busy) / total : 0, cores };
  };
}
