// Redis restarted under a live room (issue 19, Storms and deaths survived).
// The platform runs on a Redis server of this test's own (the shared one is
// never touched): a DJ plays, listeners vote and chat, and that Redis is
// (a) restarted with its data (SHUTDOWN SAVE, started again on its dump),
// (b) restarted empty (SHUTDOWN NOSAVE, no dump) and (c) flushed under the
// running platform (FLUSHALL, no reconnection at all). Each time every
// listener is told to resync (`roomReset`), rejoins, and then holds the state
// a fresh join gets, at the same version; patches follow it with no gap,
// votes and chat work again, and the song goes on advancing.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '@spinroom/platform';
import { eventually, freePort } from '@spinroom/platform/testing';
import { api, freshEmail, startPlatform, type TestPlatform } from '../support/platform.js';
import { RawFeedListener } from '../support/raw-feed-listener.js';

type Json = any;
const PLAY_MS = 5_000;

/** A redis-server of the test's own, on a free port, dumping (when asked) into a folder of its own. */
class OwnRedis {
  private child?: ChildProcess;
  private constructor(
    readonly port: number,
    readonly dir: string,
  ) {}

  static async start(): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort(), mkdtempSync(join(tmpdir(), 'spinroom-redis-restart-')));
    await redis.up();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  /** Starts the server: no snapshots of its own (`--save ''`), no append log; it loads `dump.rdb` when one is there. */
  async up(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
      { stdio: 'ignore' },
    );
    this.child = child;
    await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode})`);
      return (await this.call('PING')) === 'PONG' ? true : undefined;
    }, 10_000);
  }

  /** Stops the server, writing its data to the dump first (`SAVE`) or not (`NOSAVE`, and the dump removed). */
  async down(save: boolean): Promise<void> {
    const child = this.child!;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await this.call('SHUTDOWN', save ? 'SAVE' : 'NOSAVE').catch(() => undefined); // the connection closes under it
    await exited;
    if (!save) rmSync(join(this.dir, 'dump.rdb'), { force: true });
  }

  async call(...args: string[]): Promise<unknown> {
    const client = createRedis(this.url);
    client.on('error', () => undefined);
    try {
      return await client.call(args[0]!, ...args.slice(1));
    } finally {
      client.disconnect();
    }
  }

  async stop(): Promise<void> {
    if (this.child && this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child!.once('exit', resolve));
      this.child.kill('SIGKILL');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

describe('Redis restarted under a live room', () => {
  let redis: OwnRedis;
  let platform: TestPlatform;
  const listeners: RawFeedListener[] = [];

  beforeAll(async () => {
    redis = await OwnRedis.start();
    // A longer grace than the tests' 500 ms: members of a written-back room leave unless they rejoin within it.
    platform = await startPlatform({ redisUrl: redis.url, room: { LIVE_MAX_PLAY_MS: PLAY_MS, LIVE_LEAVE_GRACE_MS: 5_000 } });
  }, 180_000);
  afterAll(async () => {
    for (const listener of listeners) listener.close();
    await platform?.stop();
    await redis?.stop();
  });

  const call = (method: string, path: string, options?: Parameters<typeof api>[3]) => api(platform.baseUrl, method, path, options);
  const person = async (nickname: string) => {
    const body = (
      await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery', nickname } })
    ).body;
    return { token: body.accessToken as string, uuid: body.userUuid as string };
  };
  const playing = (state: Json) => state?.nowPlaying?.song?.trackName as string | undefined;

  it('tells every listener to resync, who then hold a fresh join’s state; patches, votes, chat and songs go on', {
    timeout: 240_000,
  }, async () => {
    const owner = await person('DJ');
    const people = await Promise.all(['Ann', 'Bob', 'Cy'].map((nickname) => person(nickname)));
    const created = await call('POST', '/api/room-service/rooms/infrastructure', {
      token: owner.token,
      body: { name: `Redis restart ${Date.now()}` },
    });
    expect(created.status).toBe(201);
    const roomUuid = created.body.uuid as string;
    const songs = Array.from({ length: 12 }, (_, i) => ({
      musicProvider: 'spotify',
      songId: `redis-restart-${i}-${randomUUID()}`,
      trackName: `R${i + 1}`,
      artistName: 'Restart',
      duration: 200,
    }));
    expect(
      (await call('POST', '/api/playlist-service/crate/special/queue/songs', { token: owner.token, body: { songs, append: true } })).status,
    ).toBe(201);
    const chatTokens = await Promise.all(
      people.map(
        async (who) => (await call('GET', '/api/user-service/comet-chat/user-token', { token: who.token })).body.cometAuthToken as string,
      ),
    );
    for (const chatToken of chatTokens) {
      const joined = await call('POST', `/chat/v3.0/groups/${roomUuid}/members`, {
        headers: { appid: 'spinroom', authtoken: chatToken },
        body: {},
      });
      expect(joined.status).toBe(200);
    }

    const dj = new RawFeedListener(platform.baseUrl, owner.token, roomUuid);
    listeners.push(dj, ...people.map((who) => new RawFeedListener(platform.baseUrl, who.token, roomUuid)));
    for (const listener of listeners) await listener.start();
    expect((await dj.act('addDj')).status).toBe('OK');
    await eventually(async () => (listeners.every((l) => playing(l.state) === 'R1') ? true : undefined), 20_000);

    /** Every listener's state, once quiet, is what a fresh join (the DJ's second socket, which changes nothing) gets. */
    const inSync = async (what: string) => {
      const settled = await eventually(async () => {
        const before = dj.version;
        await new Promise((r) => setTimeout(r, 300));
        return listeners.every((l) => l.state !== undefined && l.version === before) && dj.version === before ? before : undefined;
      }, 20_000);
      const fresh = new RawFeedListener(platform.baseUrl, owner.token, roomUuid);
      await fresh.start();
      await eventually(async () => (Object.keys(fresh.state.allUserData).length > 0 ? true : undefined));
      fresh.close();
      if (fresh.version !== settled) return false; // something changed meanwhile: look again
      const outOfSync = listeners.filter((l) => !isDeepStrictEqual(l.state, fresh.state));
      const differing = outOfSync[0]
        ? Object.keys(fresh.state as object).filter((k) => !isDeepStrictEqual(outOfSync[0]!.state[k], fresh.state[k]))
        : [];
      expect({ what, outOfSync: outOfSync.length, differing }).toEqual({ what, outOfSync: 0, differing: [] });
      return true;
    };

    /** Votes (acknowledged, each heard by every listener as the next version), a chat message heard by all, and the next song. */
    const roomWorks = async (round: number) => {
      const versionsBefore = listeners.map((l) => l.versions.length);
      for (const [i, listener] of listeners.slice(1).entries()) {
        const answer = await listener.act('voteOnSong', { songVotes: { like: (i + round) % 2 === 0 } });
        expect(answer).toMatchObject({ status: 'OK' });
      }
      await eventually(async () => (listeners.every((l, i) => l.versions.length >= versionsBefore[i]! + 3) ? true : undefined));
      const heardBefore = listeners.map((l) => l.heard.filter((n) => n === 'sentChatMessage').length);
      const sent = await call('POST', '/chat/v3.0/messages', {
        headers: { appid: 'spinroom', authtoken: chatTokens[round % chatTokens.length]! },
        body: {
          type: 'text',
          receiverType: 'group',
          category: 'message',
          receiver: roomUuid,
          data: { text: `round ${round}`, metadata: { chatMessage: { message: `round ${round}` } } },
        },
      });
      expect(sent.status).toBe(200);
      await eventually(async () =>
        listeners.every((l, i) => l.heard.filter((n) => n === 'sentChatMessage').length > heardBefore[i]!) ? true : undefined,
      );
      const song = playing(dj.state);
      await eventually(
        async () => (listeners.every((l) => playing(l.state) && playing(l.state) !== song) ? true : undefined),
        PLAY_MS + 10_000,
      );
    };

    await roomWorks(0);
    const restarts: Array<{ what: string; disrupt: () => Promise<void> }> = [
      {
        what: 'restarted with its data',
        disrupt: async () => {
          await redis.down(true);
          await new Promise((r) => setTimeout(r, 1_000));
          await redis.up();
        },
      },
      {
        what: 'restarted empty',
        disrupt: async () => {
          await redis.down(false);
          await new Promise((r) => setTimeout(r, 1_000));
          await redis.up();
        },
      },
      {
        what: 'flushed',
        disrupt: async () => {
          expect(await redis.call('FLUSHALL')).toBe('OK');
        },
      },
    ];
    for (const [round, { what, disrupt }] of restarts.entries()) {
      const joinsBefore = listeners.map((l) => l.joins);
      const resetsBefore = listeners.map((l) => l.resets);
      const song = playing(dj.state);
      const disruptedAt = Date.now();
      await disrupt();
      // Told to resync (roomReset), and back: rejoined with the whole state.
      await eventually(async () => {
        if (listeners.every((l, i) => l.resets > resetsBefore[i]! && l.joins > joinsBefore[i]! && l.state)) return true;
        throw new Error(
          `${what}: resets ${listeners.map((l, i) => l.resets - resetsBefore[i]!)}, rejoins ${listeners.map((l, i) => l.joins - joinsBefore[i]!)}`,
        );
      }, 20_000);
      console.log(`[redis-restart] ${what}: every listener resynced ${Date.now() - disruptedAt} ms after the disruption began`);
      // The room came back or was rebuilt from the copy the room service held: the DJ and the song are still there.
      expect(listeners.map((l) => l.state.djs.map((d: Json) => d.uuid))).toEqual(listeners.map(() => [owner.uuid]));
      // The song that played, or (if it ended meanwhile) a later one of the queue.
      expect(Number(playing(dj.state)?.slice(1))).toBeGreaterThanOrEqual(Number(song!.slice(1)));
      await eventually(async () => ((await inSync(what)) ? true : undefined), 30_000);
      await roomWorks(round + 1);
      await eventually(async () => ((await inSync(`${what}, then patched`)) ? true : undefined), 30_000);
    }
    // No listener ever saw a version that neither repeated nor followed its own.
    expect(listeners.map((l) => l.gaps)).toEqual(listeners.map(() => 0));
    expect(listeners.flatMap((l) => l.unappliable)).toEqual([]);
    // The plays went on in order: R1, R2, ... with none skipped or repeated (each round advanced at least once).
    expect(Number(playing(dj.state)!.slice(1))).toBeGreaterThanOrEqual(5);
  });
});
