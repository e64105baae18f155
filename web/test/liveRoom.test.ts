import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FeedSocket, FeedSocketEvents, RoomEnvelope } from '../src/rooms/feedSocket';
import { FeedError } from '../src/api/errors';
import { LiveRoom, RESET_DELAY_MAX_MS } from '../src/rooms/liveRoom';
import { emptyState } from './fixtures';

/** A socket double: answers joinRoom with a state at version 10, records what happens. */
class FakeSocket {
  static all: FakeSocket[] = [];
  closed = false;
  opened = Promise.resolve();
  actions: string[] = [];
  /** The next sockets' joinRoom answers this refusal. */
  static refusal: FeedError | undefined;
  constructor(readonly events: FeedSocketEvents) {
    FakeSocket.all.push(this);
  }
  async action(name: string): Promise<Record<string, unknown>> {
    this.actions.push(name);
    if (name === 'joinRoom' && FakeSocket.refusal) throw FakeSocket.refusal;
    if (name === 'joinRoom') return { state: emptyState(), version: 10, serverTime: Date.now() };
    return {};
  }
  close() {
    if (this.closed) return;
    this.closed = true;
    this.events.onClose(true);
  }
  /** The server drops the connection. */
  drop() {
    this.closed = true;
    this.events.onClose(false);
  }
  push(envelope: Partial<RoomEnvelope>) {
    this.events.onMessage({ context: 'user', room: 'r1', ...envelope } as RoomEnvelope);
  }
}

const flush = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

describe('a live room', () => {
  let room: LiveRoom;
  beforeEach(() => {
    FakeSocket.all = [];
    FakeSocket.refusal = undefined;
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    room?.stop();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
  const start = async (random = () => 0.5) => {
    room = new LiveRoom({
      baseUrl: 'http://x',
      roomUuid: 'r1',
      token: () => 't',
      random,
      createSocket: (_b, _t, events) => new FakeSocket(events) as unknown as FeedSocket,
    });
    room.start();
    await flush();
    return FakeSocket.all.at(-1)!;
  };

  it('joins, then applies patches in version order', async () => {
    const socket = await start();
    expect(socket.actions).toEqual(['joinRoom']);
    expect(room.snapshot).toMatchObject({ status: 'live', live: { version: 10 } });
    socket.push({ version: 11, message: { name: 'votedOnSong', statePatch: [{ op: 'replace', path: '/voteCounts/likes', value: 2 }] } });
    expect(room.state?.voteCounts.likes).toBe(2);
    expect(room.snapshot.live?.version).toBe(11);
  });

  it('rejoins when a patch fails to apply', async () => {
    const socket = await start();
    socket.push({ version: 11, message: { name: 'removedDj', statePatch: [{ op: 'remove', path: '/djs/0' }] } });
    expect(socket.closed).toBe(true);
    expect(room.snapshot.status).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeSocket.all).toHaveLength(2);
    expect(FakeSocket.all[1]!.actions).toEqual(['joinRoom']);
    expect(room.snapshot.status).toBe('live');
  });

  it('rejoins on a version gap', async () => {
    const socket = await start();
    socket.push({ version: 13, message: { name: 'votedOnSong', statePatch: [] } });
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('rejoins after a random delay of up to 2 s on roomReset', async () => {
    const socket = await start(() => 0.75);
    socket.push({ message: { name: 'roomReset', params: {} } });
    await vi.advanceTimersByTimeAsync(0.75 * RESET_DELAY_MAX_MS - 10);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(FakeSocket.all).toHaveLength(2);
    expect(room.snapshot.status).toBe('live');
  });

  it('reconnects and rejoins when the socket drops', async () => {
    const socket = await start();
    socket.drop();
    expect(room.snapshot.status).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeSocket.all).toHaveLength(2);
    expect(room.snapshot.status).toBe('live');
  });

  it('leaves and keeps the reason when kicked', async () => {
    const socket = await start();
    socket.push({ message: { name: 'kickedFromRoom', params: { reason: 'Be nice' } } });
    expect(room.snapshot).toMatchObject({ status: 'kicked', kickReason: 'Be nice' });
    expect(socket.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('decides a refused join by its code: kicked and banned keep out, the other coded refusals are final', async () => {
    FakeSocket.refusal = new FeedError('You were removed from this room, please try again later', 'ROOM_KICKED');
    await start();
    expect(room.snapshot).toMatchObject({ status: 'kicked', kickReason: 'You were removed from this room, please try again later' });
    room.stop();
    FakeSocket.refusal = new FeedError('This room requires a password', 'ROOM_PASSWORD_REQUIRED');
    await start();
    expect(room.snapshot).toMatchObject({ status: 'failed', error: 'This room requires a password' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it("keeps a paid room's refusal code, and joins again on request once it no longer holds", async () => {
    FakeSocket.refusal = new FeedError('Not enough tokens to enter this room: 30 needed', 'ROOM_ENTRY_FEE_SHORT');
    await start();
    expect(room.snapshot).toMatchObject({
      status: 'failed',
      errorCode: 'ROOM_ENTRY_FEE_SHORT',
      error: 'Not enough tokens to enter this room',
    });
    await vi.advanceTimersByTimeAsync(5000);
    expect(FakeSocket.all).toHaveLength(1);
    FakeSocket.refusal = undefined;
    room.retry();
    expect(room.snapshot.status).toBe('connecting');
    await flush();
    expect(room.snapshot).toMatchObject({ status: 'live', errorCode: undefined, error: undefined });
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('retries a refusal without a code, whatever its text says', async () => {
    FakeSocket.refusal = new FeedError('kicked by a password that was not found');
    await start();
    expect(room.snapshot.status).toBe('reconnecting');
    FakeSocket.refusal = undefined;
    await vi.advanceTimersByTimeAsync(500);
    expect(room.snapshot.status).toBe('live');
  });

  it('passes chat pushes and animations on', async () => {
    const socket = await start();
    const seen: string[] = [];
    room.onEvent((name) => seen.push(name));
    socket.push({ message: { name: 'playedOneTimeAnimation', params: { userUuid: 'u1', animation: 'emoji', emoji: '🔥' } } });
    socket.push({ message: { name: 'sentChatMessage', params: { message: {} } } });
    expect(seen).toEqual(['playedOneTimeAnimation', 'sentChatMessage']);
    expect(room.snapshot.animations.u1).toMatchObject({ animation: 'emoji', emoji: '🔥' });
  });
});
