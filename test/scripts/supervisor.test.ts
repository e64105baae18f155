// The supervision `npm start` runs its services and the BFF under
// (scripts/lib/supervisor.ts), driven here with real child processes.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { eventually } from '@spinroom/platform/testing';
import { freePort } from '@spinroom/platform/testing';
import { managed } from '../../scripts/lib/processes.js';
import { restartDelay, Supervisor } from '../../scripts/lib/supervisor.js';

/** A Node child running `code`. */
const node = (name: string, code: string) => () => managed(name, spawn(process.execPath, ['-e', code], { stdio: 'ignore' }));
/** A child serving its pid over HTTP on `port`, as a service serves its API. */
const server = (name: string, port: number) =>
  node(name, `require('node:http').createServer((_q, r) => r.end(String(process.pid))).listen(${port}, '127.0.0.1')`);
const answer = async (port: number) => {
  try {
    return Number(await (await fetch(`http://127.0.0.1:${port}/`)).text());
  } catch {
    return undefined; // not listening (yet, or any more)
  }
};
const delays = (lines: string[]) => lines.flatMap((l) => /restarting it in (\d+) ms/.exec(l)?.[1] ?? []).map(Number);

describe('the supervisor npm start runs the platform under', () => {
  it('waits twice as long after each crash in a row, up to the cap', () => {
    const policy = { initialDelayMs: 1000, maxDelayMs: 30_000, healthyAfterMs: 60_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => restartDelay(n, policy))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('restarts a killed process and leaves the others running; stop() ends them all for good', async () => {
    const lines: string[] = [];
    const supervisor = new Supervisor({ initialDelayMs: 100, maxDelayMs: 1000, healthyAfterMs: 60_000 }, (line) => lines.push(line));
    const [userPort, bffPort] = [await freePort(), await freePort()];
    supervisor.add('user', server('user', userPort));
    supervisor.add('bff', server('bff', bffPort));
    const userPid = await eventually(() => answer(userPort));
    const bffPid = await eventually(() => answer(bffPort));
    try {
      supervisor.process('user')!.child.kill('SIGKILL');
      const restartedPid = await eventually(
        async () => {
          const pid = await answer(userPort);
          return pid !== undefined && pid !== userPid ? pid : undefined;
        },
        10_000,
        50,
      );
      expect(restartedPid).toBe(supervisor.process('user')!.child.pid);
      expect(supervisor.restarts('user')).toBe(1);
      expect(lines).toEqual([
        expect.stringMatching(/^user exited \(SIGKILL\) after .*; restarting it in 100 ms$/),
        `user restarted (pid ${restartedPid}, restart 1)`,
      ]);
      // The other one was never touched.
      expect(await answer(bffPort)).toBe(bffPid);
      expect(supervisor.restarts('bff')).toBe(0);
    } finally {
      await supervisor.stop();
    }
    expect(await answer(userPort)).toBeUndefined();
    expect(await answer(bffPort)).toBeUndefined();
    await new Promise((r) => setTimeout(r, 300)); // past the restart delay: nothing comes back
    expect(await answer(userPort)).toBeUndefined();
    expect(supervisor.restarts('user')).toBe(1);
  });

  it('backs off exponentially while a process keeps crashing, capped', async () => {
    const lines: string[] = [];
    const supervisor = new Supervisor({ initialDelayMs: 50, maxDelayMs: 200, healthyAfterMs: 60_000 }, (line) => lines.push(line));
    supervisor.add('room', node('room', 'process.exit(3)'));
    try {
      await eventually(async () => (delays(lines).length >= 5 ? true : undefined), 10_000, 20);
    } finally {
      await supervisor.stop();
    }
    expect(delays(lines).slice(0, 5)).toEqual([50, 100, 200, 200, 200]);
    expect(lines[0]).toMatch(/^room exited \(code 3\) after .+; restarting it in 50 ms$/);
    expect(lines).toContainEqual(expect.stringMatching(/^room exited \(code 3\) after .+; restarting it in 200 ms \(crash 3 in a row\)$/));
  });

  it('starts the backoff over after a healthy run', async () => {
    const lines: string[] = [];
    // Each run lasts 300 ms, longer than the 200 ms that counts as healthy: every restart waits the first step.
    const supervisor = new Supervisor({ initialDelayMs: 50, maxDelayMs: 1000, healthyAfterMs: 200 }, (line) => lines.push(line));
    supervisor.add('chat', node('chat', 'setTimeout(() => process.exit(1), 300)'));
    try {
      await eventually(async () => (delays(lines).length >= 3 ? true : undefined), 10_000, 20);
    } finally {
      await supervisor.stop();
    }
    expect(delays(lines).slice(0, 3)).toEqual([50, 50, 50]);
  });
});
