import { randomUUID } from 'node:crypto';
import { createLogger, createRedis, decodeFeedFrame, feedChannel, type Caller, type Redis } from '@spinroom/platform';
import { isolatedRedisUrl } from '@spinroom/platform/testing';
import jsonpatch, { type Operation } from 'fast-json-patch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientStateJson } from '../src/domain/live/state-json.js';
import { LiveRooms, type RoomAccess } from '../src/live-rooms/live-rooms.js';
import { LiveStore } from '../src/live-rooms/live-store.js';
import { RULES } from './stage-rules.js';

const access: RoomAccess = {
  settings: { slug: 'r' },
  rules: RULES,
  highestRole: undefined,
  canDj: true,
  fee: { entryFee: 0, freeEntries: 0, ownerUuid: null },
};
const person = (userUuid: string): Caller => ({ userUuid, role: 'user', kind: 'user', capabilities: [], token: 't' });

describe("joins answered with the version, the room's state apart (Redis)", () => {
  let redis: Redis;
  let subscriber: Redis;
  beforeAll(async () => {
    const url = await isolatedRedisUrl();
    redis = createRedis(url);
    subscriber = createRedis(url);
  });
  afterAll(() => {
    redis?.disconnect();
    subscriber?.disconnect();
  });

  function liveRooms(store = new LiveStore(redis), joinIntervalMs?: number): LiveRooms {
    const directory = { enter: () => Promise.resolve(access), access: () => Promise.resolve(access), room: () => Promise.resolve(access) };
    const nothing = () => Promise.resolve();
    return new LiveRooms(
      store,
      directory,
      { head: () => Promise.resolve([]), requeue: nothing, snag: nothing },
      { of: (caller) => Promise.resolve({ uuid: caller.userUuid, nickname: `Person ${caller.userUuid.slice(0, 4)}` }) },
      { songPlayed: nothing, stageChanged: nothing },
      { enter: (_room, _fee, _who, join) => join() },
      { leaveGraceMs: 1_000, afkGraceMs: 60_000, connectionTtlMs: 60_000, effectsRetryMs: 5_000, joinIntervalMs },
      createLogger('room', { level: 'silent' }),
    );
  }

  /** The whole client document a joiner ends up with: the state, and `allUserData` from its second message. */
  type Document = { allUsers: Array<{ uuid: string }>; allUserData: Record<string, unknown> };
  const document = (state: { stateJson: string; allUserDataJson: string }): Document => ({
    ...(JSON.parse(state.stateJson) as Document),
    allUserData: JSON.parse(state.allUserDataJson) as Record<string, unknown>,
  });

  it('lets a batch of joiners in, each answered with a version its state (fetched once for all) is at or after, with no version gap', async () => {
    const roomUuid = randomUUID();
    const rooms = liveRooms();
    const frames: Array<{ version: number; patch: Operation[] }> = [];
    subscriber.on('message', (channel: string, raw: string) => {
      if (channel !== feedChannel(roomUuid)) return;
      const frame = decodeFeedFrame(raw)!;
      if (frame.kind !== 's') return;
      const message = (JSON.parse(frame.json) as { message: { statePatch?: Operation[] } }).message;
      frames.push({ version: frame.version, patch: message.statePatch ?? [] });
    });
    await subscriber.subscribe(feedChannel(roomUuid));

    const join = (userUuid: string) => rooms.join(person(userUuid), roomUuid, { connectionId: `c-${userUuid}`, versionOnly: true });
    const first = await Promise.all(Array.from({ length: 30 }, () => join(randomUUID())));
    for (const joined of first)
      expect({ stateJson: joined.stateJson, allUserDataJson: joined.allUserDataJson }).toEqual({ stateJson: '', allUserDataJson: '' });
    // Waiting together, they entered in fewer writes than joiners.
    const versions = [...new Set(first.map((j) => j.version))];
    expect(versions.length).toBeLessThan(first.length);

    const newest = Math.max(...versions);
    const state = await rooms.joinState(roomUuid, newest);
    expect(state.version).toBe(newest);
    const again = await rooms.joinState(roomUuid, Math.min(...versions));
    expect(again).toEqual(state); // at the room's current version, whichever version was asked for
    const joinedAt = document(state);
    expect(joinedAt.allUsers).toHaveLength(30);
    expect(Object.keys(joinedAt.allUserData).sort()).toEqual(joinedAt.allUsers.map((u) => u.uuid).sort());
    // The same text a full answer gives (and a join asking for it still gets).
    expect({ stateJson: state.stateJson, allUserDataJson: state.allUserDataJson }).toEqual(
      clientStateJson((await rooms.snapshot(roomUuid))!.room.client),
    );
    const full = await rooms.join(person(randomUUID()), roomUuid, { connectionId: 'c-full' });
    expect(full.version).toBe(newest + 1);
    expect(document(full).allUsers).toHaveLength(31);

    // More join while one client holds the first state: the patches after its version bring it to the room's, none missing.
    const more = await Promise.all(Array.from({ length: 20 }, () => join(randomUUID())));
    const last = await rooms.joinState(roomUuid, Math.max(...more.map((j) => j.version)));
    await expect.poll(() => frames.at(-1)?.version).toBe(last.version);
    const after = frames.filter((f) => f.version > state.version);
    expect(after.map((f) => f.version)).toEqual(Array.from({ length: last.version - state.version }, (_, i) => state.version + 1 + i));
    const patched = after.reduce((doc, f) => jsonpatch.applyPatch(doc, f.patch, true, false).newDocument, document(state));
    expect(patched).toEqual(document(last));
    expect(document(last).allUsers).toHaveLength(51);

    // Never a state behind a version already answered.
    await expect(rooms.joinState(roomUuid, last.version + 1)).rejects.toThrow(/no live state/);
    await expect(rooms.joinState(randomUUID(), 1)).rejects.toThrow(/no live state/);
  });

  it("lets a quiet room's join in at once, and the joins that follow within the interval in together at its end", async () => {
    const roomUuid = randomUUID();
    const rooms = liveRooms(new LiveStore(redis), 2_000);
    const join = (userUuid: string) => rooms.join(person(userUuid), roomUuid, { connectionId: `c-${userUuid}`, versionOnly: true });
    const started = performance.now();
    const first = await join(randomUUID());
    expect(performance.now() - started).toBeLessThan(1_500); // not held: nobody entered before it
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const timed = (userUuid: string) => join(userUuid).then((joined) => ({ joined, at: performance.now() }));
    const later = [timed(randomUUID()), sleep(50).then(() => timed(randomUUID())), sleep(100).then(() => timed(randomUUID()))];
    const answered = await Promise.all(later);
    // One entry for the three, one version, at the end of the interval that began with the first's entry.
    expect(new Set(answered.map((a) => a.joined.version))).toEqual(new Set([first.version + 1]));
    for (const { at } of answered) expect(at - started).toBeGreaterThanOrEqual(1_900);
    const state = document(await rooms.joinState(roomUuid, first.version + 1));
    expect(state.allUsers).toHaveLength(4);
  });
});
