// A fuzz target for the room feed: several sockets send /primus what no client
// should (broken JSON, oversized and binary frames, random shapes, actions with
// wrong types, huge and odd params, floods of objects and of strings, upgrades
// reset halfway) while two healthy clients share a room with them. The healthy
// ones must keep acting and receiving every patch, and the BFF must keep
// answering. Bounded in frames and in time; the PRNG is seeded, and the seed is
// printed: FEED_FUZZ_SEED=<seed> replays a run.
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { eventually } from '@spinroom/platform/testing';
import { LIVE_ACTION_NAMES } from '../../bff/src/feed/live-actions.js';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, usePlatform } from '../support/platform.js';

type Json = any;

const SEED = Number(process.env.FEED_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 32));
console.log(`room feed fuzz seed: ${SEED} (FEED_FUZZ_SEED=${SEED} replays this run)`);

const FUZZ_SOCKETS = 4;
const FRAMES_PER_SOCKET = 150;
const FUZZ_DEADLINE_MS = 20_000;
const MAX_FRAME_BYTES = 4096;

/** mulberry32: small, seedable, good enough to pick frames. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const ODD = ['', ' ', '\u0000', '\u0001', '\u202e', '\ud800', '💿', '%00', '../', '__proto__', 'constructor', '"', '\\', '\n'];
  const text = (max: number) =>
    Array.from({ length: int(max) }, () => (next() < 0.2 ? pick(ODD) : String.fromCharCode(32 + int(95)))).join('');
  const scalar = (): Json =>
    pick([
      () => null,
      () => true,
      () => false,
      () => int(1000) - 500,
      () => 1e308,
      () => -0,
      () => 0.5,
      () => Number.MAX_SAFE_INTEGER + 2,
      () => text(20),
      () => pick(ODD),
      () => randomUUID(),
    ])();
  const json = (depth: number): Json => {
    if (depth <= 0 || next() < 0.4) return scalar();
    if (next() < 0.5) return Array.from({ length: int(5) }, () => json(depth - 1));
    return Object.fromEntries(Array.from({ length: int(5) }, () => [next() < 0.3 ? pick(ODD) : text(8), json(depth - 1)]));
  };
  return { next, int, pick, text, scalar, json };
}

describe('the room feed under fuzzing', () => {
  const { call, platform } = usePlatform({ feed: { maxFrameBytes: MAX_FRAME_BYTES } });
  const person = async () => {
    const body = (
      await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } })
    ).body;
    return { token: body.accessToken as string, uuid: body.userUuid as string };
  };

  it(`keeps serving healthy clients while sockets send it garbage (seed ${SEED})`, async () => {
    const owner = await person();
    const dj = await person();
    const created = await call('POST', '/api/room-service/rooms/infrastructure', {
      token: owner.token,
      body: { name: `Fuzz ${randomUUID().slice(0, 8)}` },
    });
    expect(created.status).toBe(201);
    const roomUuid = created.body.uuid as string;
    const queued = await call('POST', '/api/playlist-service/crate/special/queue/songs', {
      token: dj.token,
      // A song per healthy cycle: a song played a moment ago waits out the room's repeat window.
      body: {
        songs: Array.from({ length: 40 }, (_, i) => ({
          musicProvider: 'spotify',
          songId: `fuzz-${randomUUID()}`,
          trackName: `Fuzz ${i}`,
          artistName: 'Fuzzer',
          duration: 200,
        })),
      },
    });
    expect(queued.status).toBe(201);
    const watcher = await FeedListener.join(platform().baseUrl, owner.token, owner.uuid, roomUuid);
    const actor = await FeedListener.join(platform().baseUrl, dj.token, dj.uuid, roomUuid);
    const feedUrl = (token: string) => `${platform().baseUrl.replace('http', 'ws')}/primus?_primuscb=fuzz&token=${token}`;
    const fuzzers = await Promise.all(Array.from({ length: FUZZ_SOCKETS }, () => person()));

    // Answers the feed gave the fuzzers: none may be the server's own failure.
    const serverFailures: Json[] = [];
    const closeCodes = new Map<number, number>();
    const deadline = Date.now() + FUZZ_DEADLINE_MS;

    const open = (token: string) =>
      new Promise<WebSocket | undefined>((resolve) => {
        const ws = new WebSocket(feedUrl(token));
        ws.on('message', (data) => {
          let message: Json;
          try {
            // eslint-disable-next-line @typescript-eslint/no-base-to-string -- ws's default binaryType 'nodebuffer' always delivers a Buffer
            message = JSON.parse(data.toString());
          } catch {
            return;
          }
          if (message?.error === 'Something went wrong, please try again') serverFailures.push(message);
        });
        ws.on('error', () => resolve(undefined));
        ws.once('close', (code) => closeCodes.set(code, (closeCodes.get(code) ?? 0) + 1));
        ws.once('open', () => resolve(ws));
      });

    /** An upgrade request the client resets before the server has answered it. */
    const resetUpgrade = (rnd: ReturnType<typeof prng>, token: string) =>
      new Promise<void>((resolve) => {
        const { port } = new URL(platform().baseUrl);
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `GET /primus?_primuscb=fuzz&token=${token} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
              `Sec-WebSocket-Key: ${Buffer.from(randomUUID().slice(0, 16)).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
          );
          setTimeout(() => {
            socket.resetAndDestroy();
            resolve();
          }, rnd.int(3));
        });
        socket.on('error', () => resolve());
      });

    // Each fuzz socket draws from its own PRNG (SEED + its index), so a seed replays every socket's frames.
    const framesFor = (rnd: ReturnType<typeof prng>): Array<(ws: WebSocket, token: string) => Promise<void> | void> => [
      // Broken JSON, and text that is not UTF-8.
      (ws) => ws.send(rnd.pick(['{', '{"event":', '[1,2', 'nul', 'undefined', '{"event":"action"}}', rnd.text(40)])),
      (ws) => ws.send(Buffer.from([0xc3, 0x28, 0xff, 0xfe]), { binary: false }),
      // Oversized and binary frames.
      (ws) => ws.send(JSON.stringify({ event: 'action', params: { pad: 'x'.repeat(MAX_FRAME_BYTES + rnd.int(10_000)) } })),
      (ws) => ws.send(Buffer.from(Array.from({ length: 1 + rnd.int(64) }, () => rnd.int(256))), { binary: true }),
      // Random JSON of any shape.
      (ws) => ws.send(JSON.stringify(rnd.json(4))),
      (ws) =>
        ws.send(
          JSON.stringify({
            event: rnd.pick(['action', 'detailsView', 'roomLeave', rnd.text(10), 42, null]),
            messageId: rnd.scalar(),
            params: rnd.json(3),
            room: rnd.scalar(),
          }),
        ),
      // Actions with wrong types, in the room and out of it.
      (ws) =>
        ws.send(
          JSON.stringify({
            event: 'action',
            messageId: rnd.pick([rnd.int(1000), -1, 1.5, '7', null]),
            params: {
              action: rnd.pick([...LIVE_ACTION_NAMES, 'joinRoom', 'joinRoom', rnd.text(12), 7, null]),
              roomUuid: rnd.pick([roomUuid, roomUuid, roomUuid, randomUUID(), 'not-a-uuid', 42, null]),
              ...rnd.pick([
                {},
                { songVotes: rnd.json(2) },
                { songVotes: { like: rnd.scalar(), star: rnd.scalar() } },
                { position: rnd.scalar() },
                { song: rnd.json(3) },
                { animation: rnd.scalar() },
                { djUuid: rnd.scalar() },
                { userUuid: owner.uuid, tokenRole: 'admin' },
                { password: rnd.scalar(), guestPassword: rnd.json(2) },
              ]),
            },
          }),
        ),
      // Huge and odd params: many keys, deep nesting, prototype names.
      (ws) =>
        ws.send(
          JSON.stringify({
            event: 'action',
            messageId: 1,
            params: { action: 'voteOnSong', roomUuid, ...Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i])) },
          }),
        ),
      (ws) =>
        ws.send(
          `{"event":"action","messageId":2,"params":{"action":"addDj","roomUuid":"${roomUuid}","deep":${'['.repeat(900)}${']'.repeat(900)}}}`,
        ),
      (ws) =>
        ws.send(
          `{"event":"action","messageId":3,"params":{"__proto__":{"action":"addDj"},"constructor":{"prototype":{}},"action":"addDj","roomUuid":"${roomUuid}"}}`,
        ),
      // Floods, of objects and of strings (Primus pongs included).
      async (ws) => {
        for (let i = 0; i < 40 && ws.readyState === ws.OPEN; i += 1) ws.send(JSON.stringify({ event: 'detailsView', messageId: i }));
      },
      async (ws) => {
        for (let i = 0; i < 40 && ws.readyState === ws.OPEN; i += 1)
          ws.send(JSON.stringify(rnd.pick([`primus::pong::${i}`, `primus::ping::${i}`, rnd.text(30)])));
      },
      // Upgrades reset by the client while the server checks the token.
      (_ws, token) => resetUpgrade(rnd, rnd.pick([token, 'not.a.token'])),
    ];

    const fuzz = async (token: string, index: number) => {
      const rnd = prng(SEED + index);
      const frames = framesFor(rnd);
      let ws: WebSocket | undefined;
      for (let sent = 0; sent < FRAMES_PER_SOCKET && Date.now() < deadline; sent += 1) {
        if (ws?.readyState !== WebSocket.OPEN) ws = await open(token);
        if (!ws) continue;
        await rnd.pick(frames)(ws, token);
        if (rnd.next() < 0.3) await new Promise((r) => setTimeout(r, rnd.int(20)));
      }
      ws?.terminate();
    };

    // The healthy side: one DJ steps up and down, the other follows every patch up to
    // the version each action answered; the BFF answers /healthz.
    let fuzzing = true;
    let cycles = 0;
    const healthy = async () => {
      while (fuzzing || cycles < 2) {
        const added = await actor.action('addDj');
        await watcher.until(() => watcher.version >= added.version, `version ${added.version} (the DJ added, cycle ${cycles})`);
        expect(
          watcher.versions.some((v) => v === added.version),
          `seed ${SEED}`,
        ).toBe(true);
        // The stage may already have let them go (the clock moves on its own): then there is nothing to remove.
        const removed = await actor.action('removeDj').catch(() => undefined);
        if (removed)
          await watcher.until(() => watcher.version >= removed.version, `version ${removed.version} (the DJ removed, cycle ${cycles})`);
        expect((await call('GET', '/healthz')).status).toBe(200);
        cycles += 1;
        await new Promise((r) => setTimeout(r, 300));
      }
    };
    await Promise.all([
      healthy(),
      Promise.all(fuzzers.map((f, i) => fuzz(f.token, i))).then(() => {
        fuzzing = false;
      }),
    ]);

    console.log(
      `room feed fuzz seed ${SEED}: ${cycles} healthy cycles; fuzz sockets closed with ${JSON.stringify(Object.fromEntries(closeCodes))}`,
    );
    expect(serverFailures, `seed ${SEED}`).toEqual([]);
    expect(watcher.errors, `seed ${SEED}`).toEqual([]);
    expect(watcher.reset || watcher.kicked, `seed ${SEED}`).toBe(false);
    // The watcher's patched state is the room's: a fresh join sees the same stage and people.
    const newcomer = await person();
    const fresh = await FeedListener.join(platform().baseUrl, newcomer.token, newcomer.uuid, roomUuid);
    const seen = (client: FeedListener) =>
      JSON.stringify({ djs: client.state.djs, users: client.state.allUsers.map((u: Json) => u.uuid).sort() });
    // Fuzz sockets that had joined leave after the room service's grace period: both views settle on the same room.
    await eventually(async () => (seen(watcher) === seen(fresh) ? true : undefined), 10_000).catch(() => undefined);
    expect(seen(watcher), `seed ${SEED}`).toBe(seen(fresh));
    for (const client of [watcher, actor, fresh]) client.close();
  }, 60_000);
});
