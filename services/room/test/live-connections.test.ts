import { randomUUID } from 'node:crypto';
import { createRedis, type Redis } from '@spinroom/platform';
import { isolatedRedisUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveKeys, LiveStore } from '../src/live-rooms/live-store.js';

describe("a live room's connections and departures (Redis)", () => {
  let redis: Redis;
  let store: LiveStore;
  beforeAll(async () => {
    redis = createRedis(await isolatedRedisUrl());
    store = new LiveStore(redis);
  });
  afterAll(() => redis?.disconnect());

  const due = async (at: number) => (await store.claimDepartures(at)).map((d) => `${d.roomUuid}|${d.userUuid}`);

  it('lets a user leave only with their last connection, now or after the grace, and a reconnection calls the departure off', async () => {
    const room = randomUUID();
    const [ana, ben] = [randomUUID(), randomUUID()];
    await store.connect(room, 'a1', ana, 1);
    await store.connect(room, 'a2', ana, 1);
    await store.connect(room, 'b1', ben, 1);
    // The same connection recorded again (a retried join) counts once.
    await store.connect(room, 'a2', ana, 2);

    expect(await store.disconnect(room, 'a1', null)).toBeUndefined();
    expect(await store.userConnected(room, ana)).toBe(true);
    expect(await store.disconnect(room, 'a2', null)).toBe(ana);
    expect(await store.userConnected(room, ana)).toBe(false);
    expect(await store.disconnect(room, 'a2', null)).toBeUndefined();

    // Ben's last connection drops: he leaves at 5,000 unless he is back; he is back, so nobody leaves.
    expect(await store.disconnect(room, 'b1', 5_000)).toBeUndefined();
    expect(await due(5_000)).toEqual([`${room}|${ben}`]);
    await store.disconnect(room, 'b1', 5_000);
    await store.connect(room, 'b2', ben, 6_000);
    await store.connect(room, 'b3', ben, 6_000);
    expect(await store.disconnect(room, 'b2', 9_000)).toBeUndefined();
    expect(await due(9_000)).toEqual([]);
    expect(await store.userConnected(room, ben)).toBe(true);
  });

  it('counts a connection kept alive after a sweep dropped it, and forgets the counts with the room', async () => {
    const room = randomUUID();
    const cleo = randomUUID();
    await store.connect(room, 'c1', cleo, 1_000);
    await store.sweepStaleConnections(room, 2_000, 30_000);
    expect(await store.userConnected(room, cleo)).toBe(false);
    expect(await due(30_000)).toEqual([`${room}|${cleo}`]);

    // Its BFF still holds it and says so: it is the user's connection again, and their last.
    await store.keepAlive([{ roomUuid: room, connectionId: 'c1', userUuid: cleo }], 3_000);
    await store.keepAlive([{ roomUuid: room, connectionId: 'c1', userUuid: cleo }], 4_000);
    expect(await store.userConnected(room, cleo)).toBe(true);
    expect(await store.disconnect(room, 'c1', null)).toBe(cleo);

    await store.connect(room, 'c2', cleo, 5_000);
    await store.delete(room);
    expect(await redis.exists(liveKeys.connections(room), liveKeys.connectionCounts(room))).toBe(0);
  });

  it('answers from the counts, made once from the connections of a room stored before they were kept', async () => {
    const room = randomUUID();
    const [dan, eve] = [randomUUID(), randomUUID()];
    // As an earlier release left a room: its connections, no counts.
    await redis.hset(liveKeys.connections(room), 'd1', `${dan}|1`, 'd2', `${dan}|1`, 'e1', `${eve}|1`);
    expect(await store.userConnected(room, eve)).toBe(true);
    expect(await redis.hgetall(liveKeys.connectionCounts(room))).toEqual({ '~': '1', [dan]: '2', [eve]: '1' });
    expect(await store.disconnect(room, 'd1', null)).toBeUndefined();
    expect(await store.disconnect(room, 'd2', null)).toBe(dan);

    // Once made, the counts alone answer: a connection written past them is not read.
    await redis.hset(liveKeys.connections(room), 'x1', `${dan}|1`);
    expect(await store.userConnected(room, dan)).toBe(false);
  });
});
