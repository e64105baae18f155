// A reconnect storm (issue 19, Storms and deaths survived): the listeners of
// one room are on one BFF process, which is killed (SIGKILL: no close frames,
// no leaves sent to the room service); every listener reconnects at once to a
// second BFF process in front of the same services and rejoins. Meanwhile a
// voter on a third BFF (the platform's own) keeps changing its vote, so
// patches flow through the whole storm. Within 10 s of the kill every
// listener is back (a join answered), has received a patch after its resync,
// and never saw a version gap or a reset; at the end each one's state, kept
// by applying the patches, equals the state a fresh join gets.
//
// The issue asks for 2,000 listeners; the test runs 200 beside the rest of the
// suite (STORM_LISTENERS=2000 runs the size; BENCHMARKS.md storms S1-S3:
// 4.2-5.5 s on a quiet machine, no drain at load 12-25). Every rejoiner is still a
// member of the room (its old connection is alive to the room service until the
// keep-alive lapses): the room service answers those the rules change nothing for
// together, from one load. It prints the CPU per rejoin, the figure that means
// something on a shared machine.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@spinroom/platform/testing';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, startBffProcess, usePlatform } from '../support/platform.js';
import { RawFeedListener } from '../support/raw-feed-listener.js';

const LISTENERS = Number(process.env.STORM_LISTENERS ?? 200);
/** Distinct people among the listeners (each on LISTENERS / PEOPLE sockets: presence is per user). */
const PEOPLE = Number(process.env.STORM_PEOPLE ?? 100);
const STORM_LIMIT_MS = 10_000;

/** Where the listeners are, for a failure's message. */
function describeAll(listeners: RawFeedListener[], voted: number): string {
  const count = (test: (l: RawFeedListener) => boolean) => listeners.filter(test).length;
  return [
    `rejoined ${count((l) => l.joins >= 2)}`,
    `patched since ${count((l) => l.joins >= 2 && l.patchedAt > 0)}`,
    `open ${count((l) => l.ws?.readyState === WebSocket.OPEN)}`,
    `joined now ${count((l) => l.state !== undefined)}`,
    `gaps ${listeners.reduce((n, l) => n + l.gaps, 0)}`,
    `resets ${listeners.reduce((n, l) => n + l.resets, 0)}`,
    `joins ${listeners.reduce((n, l) => n + l.joins, 0)}`,
    `votes ${voted}`,
    `errors ${[...new Set(listeners.map((l) => l.lastError).filter(Boolean))].slice(0, 3).join(' | ')}`,
  ].join(', ');
}

/** utime + stime of a process, in seconds (/proc/<pid>/stat, USER_HZ 100). */
function cpuSeconds(pid: number | undefined): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function inBatches<T>(items: T[], size: number, task: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(task));
}

describe('a reconnect storm: a BFF killed under the listeners of one room', () => {
  const { call, platform } = usePlatform();
  let first: Awaited<ReturnType<typeof startBffProcess>>;
  let second: Awaited<ReturnType<typeof startBffProcess>>;
  const listeners: RawFeedListener[] = [];
  const others: FeedListener[] = [];

  beforeAll(async () => {
    [first, second] = await Promise.all([
      startBffProcess(platform()),
      startBffProcess(platform(), { env: { LOG_LEVEL: process.env.STORM_LOG_LEVEL ?? 'silent' } }),
    ]);
  }, 120_000);
  afterAll(async () => {
    for (const listener of listeners) listener.close();
    for (const other of others) other.close();
    await Promise.all([first?.stop(), second?.stop()]);
  });

  const person = async (nickname: string) => {
    const body = (
      await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery', nickname } })
    ).body;
    return { token: body.accessToken as string, uuid: body.userUuid as string };
  };

  it('brings every listener back to the second BFF, in sync and receiving patches, within 10 s', { timeout: 180_000 }, async () => {
    const owner = await person('Owner');
    const voter = await person('Voter');
    const people: Array<{ token: string; uuid: string }> = [];
    await inBatches(
      Array.from({ length: PEOPLE }, (_, i) => i),
      10,
      async (i) => people.push(await person(`Listener ${i}`)),
    );
    const created = await call('POST', '/api/room-service/rooms/infrastructure', {
      token: owner.token,
      body: { name: `Storm ${Date.now()}`, roomSize: 10_000 },
    });
    expect(created.status).toBe(201);
    const roomUuid = created.body.uuid as string;
    const queued = await call('POST', '/api/playlist-service/crate/special/queue/songs', {
      token: owner.token,
      body: {
        append: true,
        songs: [{ musicProvider: 'spotify', songId: `storm-${Date.now()}`, trackName: 'Storm', artistName: 'Storm', duration: 3600 }],
      },
    });
    expect(queued.status).toBe(201);

    // The DJ and the voter are on the platform's own BFF, which lives through the storm.
    const dj = await FeedListener.join(platform().baseUrl, owner.token, owner.uuid, roomUuid);
    const voting = await FeedListener.join(platform().baseUrl, voter.token, voter.uuid, roomUuid);
    others.push(dj, voting);
    await dj.action('addDj');
    await voting.until((s) => s.nowPlaying?.song?.trackName === 'Storm', 'the song playing');

    for (let i = 0; i < LISTENERS; i += 1) listeners.push(new RawFeedListener(first.url, people[i % PEOPLE]!.token, roomUuid));
    const joinStart = Date.now();
    await inBatches(listeners, 100, (listener) => listener.start());
    const joinMs = Date.now() - joinStart;
    console.log(`[feed-storm] ${LISTENERS} listeners (${PEOPLE} people) joined in ${joinMs} ms`);

    // Votes every 200 ms from now on: patches before, during and after the storm.
    let like = false;
    let voted = 0;
    const votes = setInterval(() => {
      like = !like;
      voting.action('voteOnSong', { songVotes: { like } }).then(
        () => (voted += 1),
        () => undefined,
      );
    }, 200);
    try {
      // Everyone hears patches on the first BFF.
      await eventually(async () => listeners.every((l) => l.patchedAt > 0) || undefined, 20_000, 50);

      for (const listener of listeners) listener.url = second.url;
      const cpuBefore = { test: process.cpuUsage(), bff: cpuSeconds(second.process.child.pid) };
      const killedAt = Date.now();
      first.process.child.kill('SIGKILL');
      // Back: rejoined (a second join answered), and a patch heard since that join.
      await eventually(
        async () => {
          if (listeners.every((l) => l.joins >= 2 && l.patchedAt > 0)) return true;
          throw new Error(describeAll(listeners, voted));
        },
        Number(process.env.STORM_WAIT_MS ?? 30_000),
        50,
      );
      const resyncedMs = Math.max(...listeners.map((l) => l.joinedAt)) - killedAt;
      const patchedMs = Math.max(...listeners.map((l) => l.patchedAt)) - killedAt;
      // CPU per rejoin, meaningful on a shared machine: this process (the services and the listeners) and the second BFF.
      const testCpu = process.cpuUsage(cpuBefore.test);
      const perRejoin = (seconds: number) => ((seconds * 1000) / LISTENERS).toFixed(2);
      const bffCpu = cpuSeconds(second.process.child.pid) - cpuBefore.bff;
      console.log(
        `[feed-storm] ${LISTENERS} listeners (${PEOPLE} people) joined in ${joinMs} ms; after SIGKILL all rejoined in ${resyncedMs} ms, all patched in ${patchedMs} ms (${voted} votes); ` +
          `CPU per rejoin ${perRejoin((testCpu.user + testCpu.system) / 1e6)} ms in the test process (services, listeners), ${perRejoin(bffCpu)} ms in the second BFF; load average ${loadavg()[0]!.toFixed(1)}`,
      );
      expect(patchedMs).toBeLessThan(STORM_LIMIT_MS);
    } finally {
      clearInterval(votes);
    }

    // Quiet, then every listener's state is the one a fresh join gets, at the same version.
    const settled = await eventually(async () => {
      const before = voting.version;
      await new Promise((r) => setTimeout(r, 500));
      return voting.version === before && listeners.every((l) => l.version === before) ? before : undefined;
    }, 20_000);
    const fresh = await FeedListener.join(second.url, voter.token, voter.uuid, roomUuid);
    others.push(fresh);
    // Its allUserData comes in the message after the answer.
    await fresh.until((s) => Object.keys(s.allUserData).length > 0, "the fresh join's user data");
    expect(fresh.version).toBe(settled);
    const outOfSync = listeners.filter((l) => !isDeepStrictEqual(l.state, fresh.state));
    const differing = outOfSync[0]
      ? Object.keys(fresh.state as object).filter((key) => !isDeepStrictEqual(outOfSync[0]!.state[key], fresh.state[key]))
      : [];
    expect({ outOfSync: outOfSync.length, differing }).toEqual({ outOfSync: 0, differing: [] });
    expect(listeners.reduce((n, l) => n + l.gaps, 0)).toBe(0);
    expect(listeners.reduce((n, l) => n + l.resets, 0)).toBe(0);
    expect(listeners.every((l) => l.joins === 2)).toBe(true);
  });
});
