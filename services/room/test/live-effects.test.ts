import { randomUUID } from 'node:crypto';
import { StageChanged } from '@spinroom/contracts/events/v1/room_events';
import { createLogger, createRedis, dropDatabase, notFound, openServiceDatabase, type MikroORM, type Redis } from '@spinroom/platform';
import { isolatedRedisUrl, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodePending,
  effectKey,
  encodePending,
  givenUp,
  GIVE_UP_AFTER_MS,
  pendingEffects,
  refusedForGood,
  replayOrder,
  stageChange,
} from '../src/domain/live/pending-effects.js';
import { roomDatabase } from '../src/db/database.js';
import { PgRoomStore } from '../src/db/room-store.js';
import { PgPlayLog } from '../src/live-rooms/play-log.js';
import { emptyLiveRoom, type LiveRoom, type MinimalCrateSong } from '../src/domain/live/state.js';
import * as live from '../src/domain/live/transitions.js';
import { LiveRooms, type PlayLog, type Queues, type RoomAccess, type StageChange } from '../src/live-rooms/live-rooms.js';
import { liveKeys, LiveStore } from '../src/live-rooms/live-store.js';
import { RULES } from './stage-rules.js';

const song = (id: string): MinimalCrateSong => ({
  artistName: `Artist ${id}`,
  trackName: id,
  genre: null,
  duration: 60,
  isrc: null,
  musicProviders: { uploadService: id },
  playbackToken: null,
  thumbnails: {},
  crateSongUuid: `entry-${id}`,
});
const played = (playId: string): live.Effect => ({
  type: 'songPlayed',
  roomUuid: 'room',
  playId,
  djUuid: 'dj',
  song: song('s'),
  startTime: 0,
  endTime: 1,
  voteCounts: { likes: 0, dislikes: 0, stars: 0 },
  listeners: 1,
  audience: [],
});

describe('pending effects (domain/live/pending-effects.ts)', () => {
  it('key each effect by what it does once: the play, the play and voter, or the DJ whose next song is read', () => {
    expect(effectKey(played('p1'))).toBe('played:p1');
    expect(effectKey({ type: 'requeue', playId: 'p1', djUuid: 'dj', crateSongUuid: 'e' })).toBe('requeue:p1');
    expect(effectKey({ type: 'snag', playId: 'p1', userUuid: 'u', song: song('s') })).toBe('snag:p1:u');
    expect(effectKey({ type: 'refreshNextSong', djUuid: 'dj' })).toBe('refresh:dj');
    const change = { changeId: 'c1', roomUuid: 'room', added: ['dj'], removed: [], djs: ['dj'], numberOfDjs: 2, at: 0 };
    expect(effectKey({ type: 'stageChanged', ...change })).toBe('stage:c1');
  });

  it('see a stage change in a change that seated or unseated someone, and none in one that did not', () => {
    const seat = (room: LiveRoom, uuids: string[]): LiveRoom => ({
      ...room,
      client: { ...room.client, djs: uuids.map((uuid) => ({ uuid, tokenRole: 'user', canDj: true, nextSong: null })) },
    });
    const empty = emptyLiveRoom('room', {}, RULES);
    expect(stageChange(seat(empty, ['a', 'b']), seat(empty, ['a', 'b']), 'c0', 5)).toBeNull();
    expect(stageChange(seat(empty, ['a', 'b']), seat(empty, ['b', 'c']), 'c1', 5)).toEqual({
      type: 'stageChanged',
      changeId: 'c1',
      roomUuid: 'room',
      added: ['c'],
      removed: ['a'],
      djs: ['b', 'c'],
      numberOfDjs: 2,
      at: 5,
    });
    expect(stageChange(seat(empty, ['a']), seat(empty, []), 'c2', 5)).toMatchObject({ added: [], removed: ['a'], djs: [] });
  });

  it("keep a change's effects in its order, one per key (the later replaces the earlier), and replay them in the order stored", () => {
    const first = pendingEffects(
      [
        played('p1'),
        { type: 'requeue', playId: 'p1', djUuid: 'dj', crateSongUuid: 'e' },
        { type: 'refreshNextSong', djUuid: 'other' },
        { type: 'refreshNextSong', djUuid: 'dj' },
        { type: 'refreshNextSong', djUuid: 'other' },
      ],
      7,
      1_000,
    );
    expect(first.map((p) => [p.key, p.rev, p.index, p.at])).toEqual([
      ['played:p1', 7, 0, 1_000],
      ['requeue:p1', 7, 1, 1_000],
      ['refresh:dj', 7, 2, 1_000],
      ['refresh:other', 7, 3, 1_000],
    ]);
    const later = pendingEffects([{ type: 'snag', playId: 'p2', userUuid: 'u', song: song('s') }], 9, 500);
    const shuffled = [later[0]!, first[3]!, first[0]!, first[2]!, first[1]!];
    expect(replayOrder(shuffled, (p) => p).map((p) => p.key)).toEqual([
      'played:p1',
      'requeue:p1',
      'refresh:dj',
      'refresh:other',
      'snag:p2:u',
    ]);
  });

  it('read back what they wrote, and nothing unreadable or kept under another key', () => {
    const [pending] = pendingEffects([played('p1')], 3, 42);
    const json = encodePending(pending!);
    expect(decodePending('played:p1', json)).toEqual(pending);
    expect(decodePending('played:p2', json)).toBeNull();
    expect(decodePending('played:p1', '{not json')).toBeNull();
    expect(decodePending('played:p1', JSON.stringify({ rev: 1, index: 0, effect: played('p1') }))).toBeNull();
    expect(decodePending('x:y', JSON.stringify({ rev: 1, index: 0, at: 0, effect: { type: 'unknown' } }))).toBeNull();
  });

  it('drop an effect the other side refused for good, and try again after any other failure', () => {
    for (const status of [400, 404, 409, 410, 413, 422]) expect(refusedForGood(status)).toBe(true);
    for (const status of [undefined, 401, 403, 408, 429, 500, 502, 503, 504]) expect(refusedForGood(status)).toBe(false);
  });

  it('give up on an effect only once it has failed for a day', () => {
    const [pending] = pendingEffects([played('p1')], 1, 1_000);
    expect(givenUp(pending!, 1_000 + GIVE_UP_AFTER_MS)).toBe(false);
    expect(givenUp(pending!, 1_001 + GIVE_UP_AFTER_MS)).toBe(true);
  });
});

/** What a replica did to the world outside Redis. */
class World implements Queues, PlayLog {
  plays: string[] = [];
  requeued: Array<[string, string, string]> = [];
  snagged: string[] = [];
  stages: StageChange[] = [];
  heads = 0;
  /** A replica about to die: its effects never finish. */
  hang = false;
  queue = [song('a1'), song('a2'), song('a3')];

  private wait<T>(value: T): Promise<T> {
    return this.hang ? new Promise<T>(() => undefined) : Promise.resolve(value);
  }
  head(_dj: string, limit: number): Promise<MinimalCrateSong[]> {
    this.heads += 1;
    return Promise.resolve(this.queue.slice(0, limit));
  }
  requeue(djUuid: string, crateSongUuid: string, playId: string): Promise<void> {
    this.requeued.push([djUuid, crateSongUuid, playId]);
    return this.wait(undefined);
  }
  snag(userUuid: string, playId: string): Promise<void> {
    this.snagged.push(`${playId}:${userUuid}`);
    return this.wait(undefined);
  }
  songPlayed(play: Extract<live.Effect, { type: 'songPlayed' }>): Promise<void> {
    if (this.hang) return new Promise(() => undefined);
    this.plays.push(play.playId);
    return Promise.resolve();
  }
  stageChanged(change: StageChange): Promise<void> {
    this.stages.push(change);
    return this.wait(undefined);
  }
}

describe('a change stored with its effects (Redis)', () => {
  let redis: Redis;
  const RETRY_MS = 5_000;
  const access: RoomAccess = {
    settings: { slug: 'r' },
    rules: RULES,
    highestRole: undefined,
    canDj: true,
    fee: { entryFee: 0, freeEntries: 0, ownerUuid: null },
  };

  beforeAll(async () => {
    redis = createRedis(await isolatedRedisUrl());
  });
  afterAll(() => redis?.disconnect());

  function replica(world: World, clock: { now: number }): { rooms: LiveRooms; store: LiveStore } {
    const store = new LiveStore(redis);
    const rooms = new LiveRooms(
      store,
      { enter: () => Promise.resolve(access), access: () => Promise.resolve(access), room: () => Promise.resolve(access) },
      world,
      { of: () => Promise.resolve({}) },
      world,
      { enter: (_room, _fee, _who, join) => join() },
      { leaveGraceMs: 1_000, afkGraceMs: 60_000, connectionTtlMs: 60_000, effectsRetryMs: RETRY_MS },
      createLogger('room', { level: 'silent' }),
      () => clock.now,
    );
    return { rooms, store };
  }

  /** A room that `members` have joined, each of whom may DJ. */
  function joinedRoom(roomUuid: string, members: string[]): LiveRoom {
    let room: LiveRoom = emptyLiveRoom(roomUuid, access.settings, RULES);
    for (const uuid of members) {
      room = live.join(room, {
        member: { uuid, tokenRole: 'user', highestRole: undefined, canDj: true },
        profile: {},
        position: { x: 0, y: 0 },
      })!.room;
    }
    return room;
  }

  /** A room whose DJ plays a1 from 1,000 to 61,000, stored. */
  async function playingRoom(store: LiveStore, world: World): Promise<{ roomUuid: string; playId: string }> {
    const roomUuid = randomUUID();
    let room = joinedRoom(roomUuid, ['dj', 'fan']);
    room = live.addDj(room, 'dj', world.queue[0]!, false, 1_000).room;
    room = live.advance(room, { now: 1_000, queues: { dj: world.queue } })!.room;
    expect(await store.save(null, room, { name: 'playedSong', due: 61_000, now: 1_000 })).not.toBeNull();
    return { roomUuid, playId: room.server.play!.playId };
  }

  it('runs them exactly once though the replica that stored the change died before running them', async () => {
    const dying = new World();
    dying.hang = true;
    const clock = { now: 61_000 };
    const doomed = replica(dying, clock);
    const { roomUuid, playId } = await playingRoom(doomed.store, dying);

    // The song ends: the advance is stored with its effects, which never finish (the replica is gone).
    await doomed.rooms.tick(roomUuid);
    const after = (await doomed.store.load(roomUuid))!;
    expect(after.room.client.nowPlaying?.song.trackName).toBe('a2');
    expect(dying.plays).toEqual([]);
    expect(Object.keys(await redis.hgetall(liveKeys.effects(roomUuid))).sort()).toEqual(
      [`played:${playId}`, 'refresh:dj', `requeue:${playId}`].sort(),
    );

    // Another replica (or this one restarted): nothing before the retry time, then each effect once.
    const world = new World();
    const survivor = replica(world, clock);
    await survivor.rooms.replayEffects();
    expect(world.plays).toEqual([]);
    clock.now += RETRY_MS;
    const rival = replica(world, clock);
    await Promise.all([survivor.rooms.replayEffects(), rival.rooms.replayEffects()]);
    expect(world.plays).toEqual([playId]);
    expect(world.requeued).toEqual([['dj', 'entry-a1', playId]]);
    expect(await redis.hlen(liveKeys.effects(roomUuid))).toBe(0);
    expect(await redis.zscore(liveKeys.effectsDue, roomUuid)).toBeNull();

    // Nothing is left to run again, however often the sweep comes.
    clock.now += RETRY_MS;
    await survivor.rooms.replayEffects();
    expect(world.plays).toEqual([playId]);
    expect(world.requeued).toHaveLength(1);
  });

  it("announces a stage change once though the replica that stored it died first, under the change's id", async () => {
    const dying = new World();
    dying.hang = true;
    const clock = { now: 1_000 };
    const doomed = replica(dying, clock);
    const roomUuid = randomUUID();
    const room = joinedRoom(roomUuid, ['dj', 'fan']);
    expect(await doomed.store.save(null, room, { name: 'userJoined', due: null, now: 1_000 })).not.toBeNull();

    await doomed.rooms.addDj({ userUuid: 'dj', role: 'user', kind: 'user', token: '' } as never, roomUuid, song('a1'));
    const keys = Object.keys(await redis.hgetall(liveKeys.effects(roomUuid))).filter((key) => key.startsWith('stage:'));
    expect(keys).toHaveLength(1);
    expect(dying.stages).toHaveLength(1); // started, never finished
    const changeId = keys[0]!.slice('stage:'.length);
    expect(dying.stages[0]).toEqual({ changeId, roomUuid, added: ['dj'], removed: [], djs: ['dj'], numberOfDjs: 2, at: 1_000 });

    const world = new World();
    clock.now += RETRY_MS;
    const survivor = replica(world, clock);
    const rival = replica(world, clock);
    await Promise.all([survivor.rooms.replayEffects(), rival.rooms.replayEffects()]);
    expect(world.stages).toEqual(dying.stages);
    expect(await redis.hlen(liveKeys.effects(roomUuid))).toBe(0);
    clock.now += RETRY_MS;
    await survivor.rooms.replayEffects();
    expect(world.stages).toHaveLength(1);

    // A change that seats no one announces nothing.
    await survivor.rooms.voteOnSong({ userUuid: 'fan', role: 'user', kind: 'user', token: '' } as never, roomUuid, { like: true });
    await new Promise((r) => setTimeout(r, 50));
    expect(world.stages).toHaveLength(1);
  });

  it('keeps an effect that failed for the next sweep, and forgets those that ran', async () => {
    const world = new World();
    const clock = { now: 1_000 };
    const { rooms, store } = replica(world, clock);
    const { roomUuid } = await playingRoom(store, world);
    world.snag = () => Promise.reject(new Error('the playlist service is down'));
    await rooms.voteOnSong({ userUuid: 'fan', role: 'user', kind: 'user', token: '' } as never, roomUuid, { star: true });
    await new Promise((r) => setTimeout(r, 50));
    const [key] = Object.keys(await redis.hgetall(liveKeys.effects(roomUuid)));
    expect(key).toMatch(/^snag:.+:fan$/);

    delete (world as Partial<World>).snag;
    world.snagged = [];
    clock.now += RETRY_MS;
    await rooms.replayEffects();
    expect(world.snagged).toHaveLength(1);
    expect(await redis.hlen(liveKeys.effects(roomUuid))).toBe(0);

    // Refused for good (a song that cannot be catalogued, say): dropped at once, never tried again.
    let refusals = 0;
    world.snag = () => {
      refusals += 1;
      return Promise.reject(notFound('Song not found'));
    };
    await rooms.voteOnSong({ userUuid: 'dj', role: 'user', kind: 'user', token: '' } as never, roomUuid, { star: true });
    await new Promise((r) => setTimeout(r, 50));
    expect(refusals).toBe(1);
    expect(await redis.hlen(liveKeys.effects(roomUuid))).toBe(0);
    clock.now += RETRY_MS;
    await rooms.replayEffects();
    expect(refusals).toBe(1);
  });

  it('acknowledges an effect only as it ran: one stored again under its key since stays', async () => {
    const store = new LiveStore(redis);
    const roomUuid = randomUUID();
    const [older] = pendingEffects([{ type: 'refreshNextSong', djUuid: 'dj' }], 1, 1_000);
    const [newer] = pendingEffects([{ type: 'refreshNextSong', djUuid: 'dj' }], 2, 1_100);
    const room = emptyLiveRoom(roomUuid, {}, RULES);
    const first = await store.save(null, room, {
      name: null,
      due: null,
      now: 1_000,
      effects: { entries: [[older!.key, encodePending(older!)]], sweepAt: 6_000 },
    });
    await store.save(first, room, {
      name: null,
      due: null,
      now: 1_100,
      effects: { entries: [[newer!.key, encodePending(newer!)]], sweepAt: 6_100 },
    });
    // The room stays due when it was first due: a later change does not put its sweep off.
    expect(await redis.zscore(liveKeys.effectsDue, roomUuid)).toBe('6000');
    await store.ackEffect(roomUuid, older!.key, encodePending(older!));
    expect(await store.pendingEffects(roomUuid)).toEqual([[newer!.key, encodePending(newer!)]]);
    await store.ackEffect(roomUuid, newer!.key, encodePending(newer!));
    expect(await store.pendingEffects(roomUuid)).toEqual([]);
    expect(await redis.zscore(liveKeys.effectsDue, roomUuid)).toBeNull();
  });
});

describe('the stage change announced (PgPlayLog, PostgreSQL)', () => {
  const databaseUrl = uniqueDatabaseUrl('room_stage_once');
  let orm: MikroORM;
  let log: PgPlayLog;

  beforeAll(async () => {
    orm = await openServiceDatabase('room', databaseUrl, roomDatabase);
    log = new PgPlayLog(new PgRoomStore(orm));
  });
  afterAll(async () => {
    await orm?.close();
    await dropDatabase(databaseUrl);
  });

  const events = (changeId: string) =>
    orm.em
      .fork()
      .execute<Array<{ event_id: string; event_type: string; payload: Buffer }>>(
        `select "event_id", "event_type", "payload" from "outbox_message" where "event_id" = ?`,
        [changeId],
      );

  it("is one event under the change's id however often (and however concurrently) it is run again", async () => {
    const change: StageChange = {
      changeId: randomUUID(),
      roomUuid: randomUUID(),
      added: ['dj'],
      removed: [],
      djs: ['dj'],
      numberOfDjs: 2,
      at: Date.UTC(2026, 10, 26, 12, 0, 0),
    };
    await log.stageChanged(change);
    await log.stageChanged(change);
    const [row, ...more] = await events(change.changeId);
    expect(more).toEqual([]);
    expect(row!.event_type).toBe('room.stage-changed');
    expect(StageChanged.decode(row!.payload)).toMatchObject({
      metadata: { eventId: change.changeId, occurredAt: new Date(change.at) },
      roomUuid: change.roomUuid,
      addedDjUuids: ['dj'],
    });

    // Two replays racing: one writes the event, the other fails (and is run again later) or finds it.
    const raced = { ...change, changeId: randomUUID() };
    await Promise.allSettled([log.stageChanged(raced), log.stageChanged(raced)]);
    await log.stageChanged(raced);
    expect(await events(raced.changeId)).toHaveLength(1);

    // Another change of the same stage is another event.
    await log.stageChanged({ ...change, changeId: randomUUID() });
    const [{ count }] = (await orm.em
      .fork()
      .execute<Array<{ count: string }>>(`select count(*) as "count" from "outbox_message" where "event_type" = 'room.stage-changed'`)) as [
      { count: string },
    ];
    expect(Number(count)).toBe(3);
  });
});
