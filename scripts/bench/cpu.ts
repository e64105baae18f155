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

/** Jiffies of the whole machine (all cores) by kind, from /proc/stat's first line. */
function machineTicks() {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  // user nice system idle iowait irq softirq steal (guest counts are included in user)
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number);
  const total = user + nice + system + idle + iowait + irq + softirq + steal;
  return { busy: total - idle - iowait, total, user: user + nice, system, softirq: irq + softirq, steal };
}

export interface CpuGroup {
  name: string;
  /** Re-read at every snapshot (e.g. PostgreSQL backends come and go). */
  pids: () => number[];
}

export interface CpuReport {
  /** Share of the whole machine in use, 0-100 (100 = every core busy), including steal. */
  machineBusyPercent: number;
  /** The same, split by kind: user, system (kernel on behalf of processes), irq+softirq (loopback networking), steal (the hypervisor). */
  machine: { user: number; system: number; softirq: number; steal: number };
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
    const total = machineNow.total - machine.total;
    const pct = (key: 'busy' | 'user' | 'system' | 'softirq' | 'steal') =>
      total > 0 ? (100 * (machineNow[key] - machine[key])) / total : 0;
    return {
      machineBusyPercent: pct('busy'),
      machine: { user: pct('user'), system: pct('system'), softirq: pct('softirq'), steal: pct('steal') },
      cores,
    };
  };
}

/** Share (0-100) of the whole machine busy over the next `ms` milliseconds. */
export async function machineBusyOver(ms: number): Promise<number> {
  const start = machineTicks();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const end = machineTicks();
  const total = end.total - start.total;
  return total > 0 ? (100 * (end.busy - start.busy)) / total : 0;
}
