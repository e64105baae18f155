import { EventEmitter } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import {
  createLogger,
  encodeFeedFrame,
  feedChannel,
  feedResyncChannel,
  type Caller,
  type Redis,
  type TokenVerifier,
} from '@spinroom/platform/core';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { FeedServer, type FeedLimits } from '../src/feed/feed-server.js';
import type { JoinedRoom, JoinState, LiveRoomGateway } from '../src/feed/gateway.js';
import { JoinAnswers } from '../src/feed/join-answers.js';
import { RoomChannels, type RoomBatch } from '../src/feed/room-channels.js';

const ROOM = 'b0000000-0000-4000-8000-00000000000b';

/**
 * One FeedServer on a port of its own, as the BFF runs it, with the room
 * service and Redis replaced by what these tests need of them: joins answer
 * the room's current version, the join state is `joinState` (by default '{}'
 * at the current version, counted in `stateFetches`), and `publish` hands a
 * frame to the server as the Redis subscriber would.
 */
async function feedHarness(
  limits: Partial<FeedLimits> = {},
  joinState?: (minVersion: number, current: () => number) => Promise<JoinState>,
) {
  const subscriber = Object.assign(new EventEmitter(), {
    options: { db: 3 },
    subscribe: async () => 1,
    unsubscribe: async () => 0,
  });
  const joins: Array<{ userUuid: string; connectionId: string; version: number }> = [];
  const stateFetches: number[] = [];
  let version = 1;
  const leaves: Array<{ connectionId: string; left: boolean }> = [];
  const gateway: LiveRoomGateway = {
    async join(caller, input): Promise<JoinedRoom> {
      joins.push({ userUuid: caller.userUuid, connectionId: input.connectionId, version });
      return { roomUuid: input.roomUuid, version };
    },
    async joinState(_roomUuid, minVersion) {
      stateFetches.push(minVersion);
      return joinState ? joinState(minVersion, () => version) : { version, stateJson: '{}', allUserDataJson: '{}' };
    },
    act: async () => ({ version: 0 }),
    async leave(_roomUuid, connectionId, left) {
      leaves.push({ connectionId, left });
    },
    keepAlive: async () => undefined,
  };
  const verifier = {
    verify: async (token: string): Promise<Caller> => ({ userUuid: token, role: 'user', kind: 'user', capabilities: [], token }),
  } as unknown as TokenVerifier;
  const logger = createLogger('test', { level: 'silent' });
  const feed = new FeedServer({
    verifier: () => verifier,
    gateway,
    channels: new RoomChannels(subscriber as unknown as Redis, logger),
    logger,
    allowedOrigins: [],
    limits,
  });
  const server: Server = createServer();
  feed.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    feed,
    joins,
    stateFetches,
    leaves,
    url: (user: string) => `ws://127.0.0.1:${port}/primus?token=${user}`,
    port,
    subscriber,
    /** A stateful frame of the room, the next version, as the room service publishes it. */
    publish(message: Record<string, unknown>): { version: number; json: string } {
      version += 1;
      const json = JSON.stringify({
        context: 'user',
        room: ROOM,
        from: 'server',
        sentAt: Date.now(),
        messageId: version,
        message,
        version,
      });
      subscriber.emit('message', feedChannel(ROOM), encodeFeedFrame({ kind: 's', version, userUuid: '', json }));
      return { version, json };
    },
    async close() {
      await feed.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
type Harness = Awaited<ReturnType<typeof feedHarness>>;

/** What `ws`'s `send(text)` puts on the wire for a server's text message (RFC 6455 5.2), computed here independently. */
function expectedFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const n = payload.length;
  let header: Buffer;
  if (n < 126) header = Buffer.from([0x81, n]);
  else if (n < 65536) {
    header = Buffer.from([0x81, 126, 0, 0]);
    header.writeUInt16BE(n, 2);
  } else {
    header = Buffer.from([0x81, 127, 0, 0, 0, 0, 0, 0, 0, 0]);
    header.writeUIntBE(n, 4, 6);
  }
  return Buffer.concat([header, payload]);
}

/**
 * A feed client on a plain TCP socket: the WebSocket handshake by hand, then
 * every byte the server sends kept as it came, so frames can be compared byte
 * for byte. It can stop reading (a slow client: the kernel's buffers fill and
 * the server's writes queue up).
 */
class RawFeedClient {
  private bytes = Buffer.alloc(0);
  private upgraded = false;
  readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('data', (chunk: Buffer) => {
      this.bytes = Buffer.concat([this.bytes, chunk]);
    });
    socket.on('error', () => undefined);
  }

  static async open(port: number, user: string): Promise<RawFeedClient> {
    const socket = connect(port, '127.0.0.1');
    const client = new RawFeedClient(socket);
    socket.write(
      `GET /primus?token=${user} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    await client.until(() => client.bytes.includes('\r\n\r\n'));
    const end = client.bytes.indexOf('\r\n\r\n') + 4;
    expect(client.bytes.subarray(0, end).toString()).toMatch(/^HTTP\/1\.1 101 /);
    client.bytes = client.bytes.subarray(end);
    client.upgraded = true;
    return client;
  }

  /** A text frame from the client (masked, as RFC 6455 requires). */
  send(text: string): void {
    const payload = Buffer.from(text);
    if (payload.length >= 126) throw new Error('short frames only');
    const mask = Buffer.from([0x12, 0x34, 0x56, 0x78]);
    const masked = payload.map((b, i) => b ^ mask[i % 4]!);
    this.socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]));
  }

  /** The complete frames received so far, each as its exact bytes. */
  frames(): Buffer[] {
    if (!this.upgraded) return [];
    const frames: Buffer[] = [];
    let at = 0;
    while (at + 2 <= this.bytes.length) {
      const short = this.bytes[at + 1]! & 0x7f;
      const [headerLength, length] =
        short === 126
          ? [4, at + 4 <= this.bytes.length ? this.bytes.readUInt16BE(at + 2) : Infinity]
          : short === 127
            ? [10, at + 10 <= this.bytes.length ? this.bytes.readUIntBE(at + 4, 6) : Infinity]
            : [2, short];
      if (at + headerLength + length > this.bytes.length) break;
      frames.push(this.bytes.subarray(at, at + headerLength + length));
      at += headerLength + length;
    }
    return frames;
  }

  texts(): string[] {
    return this.frames().map((frame) => {
      const short = frame[1]! & 0x7f;
      return frame.subarray(short === 126 ? 4 : short === 127 ? 10 : 2).toString();
    });
  }

  async join(): Promise<void> {
    this.send(JSON.stringify({ event: 'action', messageId: 1, params: { action: 'joinRoom', roomUuid: ROOM } }));
    await this.until(() => this.texts().some((t) => t.includes('"updatedUserData"')));
  }

  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  destroy(): void {
    this.socket.destroy();
  }

  async until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

describe('the room feed fan-out', () => {
  let harness: Harness | undefined;
  const clients: RawFeedClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.destroy();
    await harness?.close();
    harness = undefined;
  });

  it("writes each room message to every socket in the room as the same bytes ws's send would, small, medium and large", async () => {
    harness = await feedHarness();
    const h = harness;
    const listeners = await Promise.all(Array.from({ length: 60 }, (_, i) => RawFeedClient.open(h.port, `user-${i % 7}`)));
    clients.push(...listeners);
    await Promise.all(listeners.map((c) => c.join()));
    // Beside them, the published client's transport (ws) reads the same messages.
    const ws = new WebSocket(h.url('user-ws'));
    const heard: string[] = [];
    ws.on('message', (data: Buffer) => heard.push(data.toString()));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ event: 'action', messageId: 1, params: { action: 'joinRoom', roomUuid: ROOM } }));
    await clients[0]!.until(() => heard.length >= 2);

    const sent = [
      h.publish({ name: 'votedOnSong', statePatch: [{ op: 'replace', path: '/voteCounts/likes', value: 1 }] }),
      h.publish({ name: 'updatedUserData', statePatch: [{ op: 'add', path: '/x', value: 'é'.repeat(200) }] }),
      h.publish({ name: 'updatedUserData', statePatch: [{ op: 'add', path: '/y', value: 'ü'.repeat(40_000) }] }),
    ];
    const expected = sent.map((s) => expectedFrame(s.json));
    expect(expected.map((e) => e[1]! & 0x7f)).toEqual([126, 126, 127]); // 16-bit lengths (one of them counted in UTF-8 bytes), then 64-bit
    for (const client of listeners) await client.until(() => client.frames().length >= 5);
    for (const client of listeners) {
      // The join's answer and updatedUserData (this socket's own), then the three room messages.
      // As base64: vitest compares Buffers byte by byte as arrays, too slowly for 60 x 80 KB.
      expect(
        client
          .frames()
          .slice(2)
          .map((f) => f.toString('base64')),
      ).toEqual(expected.map((f) => f.toString('base64')));
    }
    await clients[0]!.until(() => heard.length >= 5);
    expect(heard.slice(2)).toEqual(sent.map((s) => s.json));
    ws.close();
  });

  it("writes a room's frames that come together to each socket at once, skipping only what is not that socket's", async () => {
    harness = await feedHarness();
    const h = harness;
    const [one, two] = await Promise.all(['user-1', 'user-2'].map((u) => RawFeedClient.open(h.port, u)));
    clients.push(one!, two!);
    await Promise.all([one!.join(), two!.join()]);
    // In one read of the subscriber: a patch, a message for user-1 alone, a patch.
    const first = h.publish({ name: 'votedOnSong', statePatch: [{ op: 'replace', path: '/voteCounts/likes', value: 1 }] });
    const own = JSON.stringify({ context: 'user', room: ROOM, message: { name: 'updatedUserProfile', params: {} } });
    h.subscriber.emit('message', feedChannel(ROOM), encodeFeedFrame({ kind: 'u', version: 0, userUuid: 'user-1', json: own }));
    const second = h.publish({ name: 'votedOnSong', statePatch: [{ op: 'replace', path: '/voteCounts/likes', value: 2 }] });
    await one!.until(() => one!.frames().length >= 5 && two!.frames().length >= 4);
    const base64 = (texts: string[]) => texts.map((t) => expectedFrame(t).toString('base64'));
    expect(
      one!
        .frames()
        .slice(2)
        .map((f) => f.toString('base64')),
    ).toEqual(base64([first.json, own, second.json]));
    expect(
      two!
        .frames()
        .slice(2)
        .map((f) => f.toString('base64')),
    ).toEqual(base64([first.json, second.json]));
  });

  it('frames the heartbeat once for every socket too: the same bytes, with the one-byte length', async () => {
    harness = await feedHarness({ pingIntervalMs: 1000 });
    const h = harness;
    const listeners = await Promise.all([1, 2, 3].map((i) => RawFeedClient.open(h.port, `user-${i}`)));
    clients.push(...listeners);
    const pings = (client: RawFeedClient) => client.frames().filter((f) => f.toString().includes('primus::ping::'));
    // A beat every socket heard (one that connected just after a beat missed that one).
    const common = () => pings(listeners[0]!).filter((p) => listeners.every((c) => pings(c).some((q) => q.equals(p))));
    await listeners[0]!.until(() => common().length >= 1);
    const ping = common()[0]!;
    expect(ping.subarray(2).toString()).toMatch(/^"primus::ping::\d+"$/);
    expect(ping).toEqual(expectedFrame(ping.subarray(2).toString()));
    expect(ping[1]).toBeLessThan(126);
  });

  it('drops a socket that stops reading once its unsent bytes pass the limit, and the others get everything', async () => {
    // No heartbeat in the middle (on a loaded machine the 30 MB take longer than a beat's interval).
    harness = await feedHarness({ maxBufferedBytes: 256 * 1024, pingIntervalMs: 600_000 });
    const h = harness;
    const slow = await RawFeedClient.open(h.port, 'user-slow');
    const fast = await Promise.all([1, 2, 3].map((i) => RawFeedClient.open(h.port, `user-fast-${i}`)));
    clients.push(slow, ...fast);
    await Promise.all([slow, ...fast].map((c) => c.join()));
    const slowJoin = h.joins.find((j) => j.userUuid === 'user-slow')!;
    expect(h.feed.connectionCount).toBe(4);
    slow.pause();

    // 30 MB through: more than loopback's kernel buffers hold for a reader that stopped.
    const sent: string[] = [];
    for (let i = 0; i < 500; i += 1) {
      sent.push(h.publish({ name: 'updatedUserData', statePatch: [{ op: 'add', path: '/pad', value: 'p'.repeat(60_000) }] }).json);
      if (i % 25 === 24) await new Promise((resolve) => setTimeout(resolve, 20)); // let the fast ones read
    }
    await fast[0]!.until(() => h.leaves.some((l) => l.connectionId === slowJoin.connectionId));
    // Dropped by the server (terminated, not a leave on purpose: the room service gives it its grace period).
    expect(h.leaves.find((l) => l.connectionId === slowJoin.connectionId)).toEqual({ connectionId: slowJoin.connectionId, left: false });
    expect(h.feed.connectionCount).toBe(3);
    for (const client of fast) {
      await client.until(() => client.frames().length >= 2 + sent.length, 30_000);
      expect(client.texts().slice(2)).toEqual(sent);
    }
    // The slow client, reading again, gets what the kernel held for it, then the end of a socket the server dropped.
    slow.resume();
    await slow.closed;
    const got = slow.texts().slice(2);
    expect(got.length).toBeLessThan(sent.length);
    expect(got).toEqual(sent.slice(0, got.length));
  }, 90_000); // 30 MB to each of three readers: slow on a loaded machine

  it('resets every socket in a room when the subscriber reconnects to Redis, or the room service says Redis lost the rooms', async () => {
    harness = await feedHarness();
    const h = harness;
    const join = async () => {
      const listeners = await Promise.all([1, 2].map((i) => RawFeedClient.open(h.port, `user-${i}`)));
      clients.push(...listeners);
      await Promise.all(listeners.map((c) => c.join()));
      return listeners;
    };
    const resetAndClosed = async (listeners: RawFeedClient[]) => {
      for (const client of listeners) {
        // Then a close frame (the raw client never answers it, so the socket itself ends only on ws's timeout).
        await client.until(() => client.frames().some((f) => (f[0]! & 0x0f) === 0x8));
        const frames = client.frames();
        const texts = client.texts().filter((_, i) => (frames[i]![0]! & 0x0f) === 0x1);
        expect(JSON.parse(texts.at(-2)!)).toMatchObject({ context: 'user', room: ROOM, message: { name: 'roomReset', params: {} } });
        expect(texts.at(-1)).toBe('"primus::server::close"');
      }
    };
    // The first connection is no reconnection: nothing is reset.
    const first = await join();
    h.subscriber.emit('ready');
    h.publish({ name: 'votedOnSong', statePatch: [] });
    for (const client of first) await client.until(() => client.frames().length >= 3);
    expect(h.feed.connectionCount).toBe(2);
    // Connected again: frames may have been lost meanwhile.
    h.subscriber.emit('ready');
    await resetAndClosed(first);
    for (const client of first) client.destroy();
    await first[0]!.until(() => h.feed.connectionCount === 0);
    // Told on its database's channel (another database's is not this platform's).
    const second = await join();
    h.subscriber.emit('message', feedResyncChannel(4), '1');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(h.feed.connectionCount).toBe(2);
    h.subscriber.emit('message', feedResyncChannel(3), '1');
    await resetAndClosed(second);
    // Closed by the server: they leave after the grace period, unless they rejoin.
    expect(h.leaves.every((l) => !l.left)).toBe(true);
  });
});

describe("a room's joiners (join-answers.ts)", () => {
  let harness: Harness | undefined;
  const clients: RawFeedClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.destroy();
    await harness?.close();
    harness = undefined;
  });

  it('answers joiners waiting together from one fetch of the state, each the bytes ws would send, with no version gap', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Large (a 64-bit length, counted in UTF-8 bytes) and at the version the room is at when it is read.
    const stateAt = (version: number) => JSON.stringify({ at: version, pad: 'é'.repeat(40_000) });
    const userDataAt = (version: number) => JSON.stringify({ someone: { at: version, nickname: 'ü'.repeat(100) } });
    harness = await feedHarness({}, async (_min, current) => {
      await gate;
      const at = current(); // the room's version when the state is read
      return { version: at, stateJson: stateAt(at), allUserDataJson: userDataAt(at) };
    });
    const h = harness;
    const listeners = await Promise.all(Array.from({ length: 20 }, (_, i) => RawFeedClient.open(h.port, `user-${i}`)));
    clients.push(...listeners);
    for (const [i, c] of listeners.entries())
      c.send(JSON.stringify({ event: 'action', messageId: 100 + i, params: { action: 'joinRoom', roomUuid: ROOM } }));
    // Beside them, the published client's transport (ws).
    const ws = new WebSocket(h.url('user-ws'));
    const heard: string[] = [];
    ws.on('message', (data: Buffer) => heard.push(data.toString()));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ event: 'action', messageId: 7, params: { action: 'joinRoom', roomUuid: ROOM } }));
    await listeners[0]!.until(() => h.joins.length === 21);
    expect(h.joins.every((j) => j.version === 1)).toBe(true);

    // A patch while the state is read: the state will be at its version, so the sockets must not get it again.
    const inState = h.publish({ name: 'votedOnSong', statePatch: [{ op: 'replace', path: '/at', value: 2 }] });
    release();
    await listeners[0]!.until(() => listeners.every((c) => c.frames().length >= 2));
    const after = h.publish({ name: 'votedOnSong', statePatch: [{ op: 'replace', path: '/at', value: 3 }] });
    await listeners[0]!.until(() => listeners.every((c) => c.frames().length >= 3) && heard.length >= 3);
    expect(h.stateFetches).toEqual([1]); // one fetch for all 21

    const expectedTexts = (messageId: number, texts: string[]) => {
      const serverTime = /"serverTime":(\d+),/.exec(texts[0]!)![1];
      const sentAt = /"sentAt":(\d+),/.exec(texts[1]!)![1];
      return [
        `{"context":"response","messageId":${messageId},"status":"OK","roomUuid":"${ROOM}","allowedRooms":["${ROOM}"],` +
          `"didCreate":false,"serverTime":${serverTime},"version":${inState.version},"state":${stateAt(inState.version)}}`,
        `{"context":"user","room":"${ROOM}","from":"server","sentAt":${sentAt},"messageId":${inState.version},` +
          `"message":{"name":"updatedUserData","statePatch":[{"op":"replace","path":"/allUserData","value":${userDataAt(inState.version)}}],` +
          `"version":${inState.version}},"version":${inState.version}}`,
        after.json,
      ];
    };
    for (const [i, client] of listeners.entries()) {
      const texts = client.texts();
      const expected = expectedTexts(100 + i, texts);
      expect(texts).toEqual(expected);
      // Byte for byte the frames ws's send(text) writes (the answer's header covers its own bytes and the shared ones).
      expect(client.frames().map((f) => f.toString('base64'))).toEqual(expected.map((t) => expectedFrame(t).toString('base64')));
    }
    expect(heard).toEqual(expectedTexts(7, heard));
    expect(JSON.parse(heard[0]!)).toMatchObject({ status: 'OK', version: 2, state: { at: 2 } });
    ws.close();
  });

  it('fetches again for a joiner answered at a version newer than the fetch in flight, and holds nothing once no joiner waits', async () => {
    const fetched: number[] = [];
    const gates: Array<() => void> = [];
    let current = 2;
    const answers = new JoinAnswers({
      joinState: async (_room, minVersion) => {
        fetched.push(minVersion);
        const version = current; // the state as it is when it is read
        await new Promise<void>((resolve) => gates.push(resolve));
        return { version, stateJson: `{"at":${version}}`, allUserDataJson: '{}' };
      },
    });
    const first = answers.answer(ROOM, 2);
    const alsoFirst = answers.answer(ROOM, 2);
    current = 3;
    const later = answers.answer(ROOM, 3); // joined after the fetch in flight read the state
    expect(answers.roomCount).toBe(1);
    gates.shift()!();
    const [a, b] = await Promise.all([first, alsoFirst]);
    expect(a).toBe(b); // the same buffers for both
    expect(a.version).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fetched).toEqual([2, 3]);
    gates.shift()!();
    const c = await later;
    expect(c.version).toBe(3);
    expect(c.responseTail.toString()).toBe(',"version":3,"state":{"at":3}}');
    expect(answers.roomCount).toBe(0);

    // Nobody waits: the next joiner reads the state again; a failed read fails its waiters and is forgotten too.
    const again = answers.answer(ROOM, 3);
    gates.shift()!();
    expect((await again).version).toBe(3);
    expect(fetched).toEqual([2, 3, 3]);
    const failing = new JoinAnswers({ joinState: () => Promise.reject(new Error('room service down')) });
    await expect(Promise.all([failing.answer(ROOM, 1), failing.answer(ROOM, 1)])).rejects.toThrow('room service down');
    expect(failing.roomCount).toBe(0);
  });
});

describe("a room's frames handed out together (room-channels.ts)", () => {
  const frame = (version: number) => {
    const json = JSON.stringify({ context: 'user', room: ROOM, message: { name: 'votedOnSong', statePatch: [] }, version });
    return { json, raw: encodeFeedFrame({ kind: 's', version, userUuid: '', json }) };
  };
  const channels = (intervalMs: number) => {
    const subscriber = Object.assign(new EventEmitter(), { options: { db: 3 }, subscribe: async () => 1, unsubscribe: async () => 0 });
    const batches: Array<{ batch: RoomBatch; at: number }> = [];
    const room = new RoomChannels(subscriber as unknown as Redis, createLogger('test', { level: 'silent' }), intervalMs);
    const listener = { deliver: (batch: RoomBatch) => batches.push({ batch, at: performance.now() }) };
    return { subscriber, batches, room, listener, emit: (raw: string) => subscriber.emit('message', feedChannel(ROOM), raw) };
  };
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it("sends a quiet room's frame at once, and a busy room's next frames together at the end of the interval, as one buffer", async () => {
    const c = channels(1000);
    await c.room.add(ROOM, c.listener);
    const [a, b, d] = [frame(2), frame(3), frame(4)];
    c.emit(a.raw);
    expect(c.batches).toHaveLength(0); // after this read of the subscriber, not in it
    await turn();
    expect(c.batches).toHaveLength(1);
    const sentA = c.batches[0]!.at;
    c.emit(b.raw);
    c.emit(d.raw);
    await turn();
    expect(c.batches).toHaveLength(1); // held: the room sent a frame less than the interval ago
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(c.batches).toHaveLength(2);
    const { batch, at } = c.batches[1]!;
    expect(at - sentA).toBeGreaterThanOrEqual(990);
    expect(batch.frames.map((f) => f.json)).toEqual([b.json, d.json]);
    expect(batch.wire.toString('base64')).toBe(Buffer.concat([expectedFrame(b.json), expectedFrame(d.json)]).toString('base64'));
    expect([batch.uniform, batch.firstVersion, batch.lastVersion]).toEqual([true, 3, 4]);
    // The last listener gone: nothing pending is handed to anyone, and no timer is left behind.
    c.emit(frame(5).raw);
    c.room.remove(ROOM, c.listener);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(c.batches).toHaveLength(2);
  });

  it('with no interval, gathers what came in one read only; a gap or a frame for one user makes the batch looked at frame by frame', async () => {
    const c = channels(0);
    await c.room.add(ROOM, c.listener);
    c.emit(frame(2).raw);
    c.emit(frame(4).raw);
    await turn();
    c.emit(encodeFeedFrame({ kind: 'u', version: 0, userUuid: 'someone', json: '{}' }));
    await turn();
    c.emit(encodeFeedFrame({ kind: 'e', version: 0, userUuid: '', json: '{"e":1}' }));
    await turn();
    expect(c.batches.map(({ batch }) => [batch.frames.length, batch.uniform, batch.firstVersion, batch.lastVersion])).toEqual([
      [2, false, 2, 4],
      [1, false, 0, 0],
      [1, true, 0, 0],
    ]);
  });
});
