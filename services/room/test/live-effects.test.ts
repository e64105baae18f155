import { randomUUID } from 'node:crypto';
import { createLogger, createRedis, notFound, type Redis } from '@spinroom/platform';
import { isolatedRedisUrl } from '@spinroom/platform/testing';
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
} from '../src/domain/live/pending-effects.js';
import { emptyLiveRoom, type LiveRoom, type MinimalCrateSong, type StageRules } from '../src/domain/live/state.js';
import * as live from '../src/domain/live/transitions.js';
import { LiveRooms, type PlayLog, type Queues, type RoomAccess } from '../src/live-rooms/live-rooms.js';
import { liveKeys, LiveStore } from '../src/live-rooms/live-store.js';

const RULES: StageRules = {
  numberOfDjs: 2,
  songsPerDj: 0,
  roomSize: 0,
  maxSongLengthSeconds: 0,
  repeatWindowMinutes: 0,
  afkLimitMinutes: 0,
  waitlistEnabled: true,
};
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
  stageChanged(): Promise<void> {
    return Promise.resolve();
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

  /** A room whose DJ plays a1 from 1,000 to 61,000, stored. */
  async function playingRoom(store: LiveStore, world: World): Promise<{ roomUuid: string; playId: string }> {
    const roomUuid = randomUUID();
    let room: LiveRoom = emptyLiveRoom(roomUuid, access.settings, RULES);
    for (const uuid of ['dj', 'fan']) {
      room = live.join(room, {
        member: { uuid, tokenRole: 'user', highestRole: undefined, canDj: true },
        profile: {},
        position: { x: 0, y: 0 },
      })!.room;
    }
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
