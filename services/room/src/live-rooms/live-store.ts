import { randomUUID } from 'node:crypto';
import {
  encodeFeedFrame,
  feedChannel,
  feedResyncChannel,
  roomMessageJson,
  type Redis,
  type RedisScript,
  redisScript,
  type StatefulFeedMessageName,
  type StatelessFeedMessage,
} from '@spinroom/platform';
import type { Operation } from 'fast-json-patch';
import type { Arrival, Departure } from '../domain/live/members.js';
import { admit, release } from '../domain/live/members.js';
import { diffClientState } from '../domain/live/patch.js';
import type { Restoration } from '../domain/live/recovery.js';
import type { StatelessMessage } from '../domain/live/transitions.js';
import type { ClientRoomUser, ClientUserData, LiveRoom, Member } from '../domain/live/state.js';

/** Redis keys of the live rooms (`room:<entity>:<id>`). */
export const liveKeys = {
  room: (roomUuid: string) => `room:live:${roomUuid}`,
  /** The room's users, apart from the room: user uuid -> their record (`UserRecord` JSON). */
  users: (roomUuid: string) => `room:users:${roomUuid}`,
  /** Rooms by when they next need the clock (ms). */
  clock: 'room:clock',
  /** The connections in a room: connection id -> `userUuid|lastSeenMs`. */
  connections: (roomUuid: string) => `room:connections:${roomUuid}`,
  /**
   * Each connected user's number of connections in a room (user uuid -> count), written with `connections`, so a
   * leave asks about one user instead of reading every connection; the field `~` says it is complete.
   */
  connectionCounts: (roomUuid: string) => `room:connection-counts:${roomUuid}`,
  /** `roomUuid|userUuid` by when that user leaves, unless they connect again. */
  departures: 'room:departures',
  /** A room's effects not run yet (domain/live/pending-effects.ts): effect key -> the effect (JSON). */
  effects: (roomUuid: string) => `room:effects:${roomUuid}`,
  /** Rooms with pending effects by when a sweep may run them (ms): later than their writer normally needs. */
  effectsDue: 'room:effects-due',
};

export interface StoredRoom {
  room: LiveRoom;
  /** Bumped by every write: the compare-and-set guard. */
  rev: number;
  /** Bumped by every write clients see: the feed's version. */
  version: number;
  /** Each user's record as stored (JSON, '' when not stored yet) and their join order. */
  users: Map<string, { seq: number; json: string }>;
  /** The join order the next new user takes. */
  nextSeq: number;
  /** Stored before the users were kept apart (in the room's document): the next save writes them apart, joins and leaves too. */
  legacy?: boolean;
}

/** One user of a room as `room:users:<uuid>` keeps them: what the room document would hold of them. */
interface UserRecord {
  /** Join order (the user lists follow it). */
  seq: number;
  member: Member;
  data: ClientUserData;
  joinedAt?: number;
  likedAt?: number;
}

// One script per transition: compare the revision, write the room (without
// its users), the users that changed and the join order, set the room's clock,
// keep its effects until they have run, and publish its frames, all or
// nothing, in this order.
// ARGV: rev, state, version, due, room uuid, next seq, #set, #deleted,
// #effects, when a sweep may run them, then the set users' (uuid, record)
// pairs, the deleted uuids, the effects' (key, effect) pairs, and the frames.
const SAVE = `
local rev = redis.call('HGET', KEYS[1], 'rev')
if (rev or '0') ~= ARGV[1] then return -1 end
if ARGV[1] == '0' then redis.call('DEL', KEYS[4]) end
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'rev', tonumber(ARGV[1]) + 1, 'version', ARGV[3], 'seq', ARGV[6])
if ARGV[4] == '' then redis.call('ZREM', KEYS[2], ARGV[5]) else redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5]) end
local sets = tonumber(ARGV[7])
local dels = tonumber(ARGV[8])
local effects = tonumber(ARGV[9])
local i = 11
for _ = 1, sets do redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 1]); i = i + 2 end
for _ = 1, dels do redis.call('HDEL', KEYS[4], ARGV[i]); i = i + 1 end
if effects > 0 then redis.call('ZADD', KEYS[6], 'NX', ARGV[10], ARGV[5]) end
for _ = 1, effects do redis.call('HSET', KEYS[5], ARGV[i], ARGV[i + 1]); i = i + 2 end
for j = i, #ARGV do redis.call('PUBLISH', KEYS[3], ARGV[j]) end
return tonumber(ARGV[3])
`;

// An effect ran: it goes, unless a newer one took its key meanwhile; a room
// left without pending effects leaves the sweep's set. ARGV: key, the effect
// as kept, room uuid.
const ACK_EFFECT = `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[1]) end
if redis.call('HLEN', KEYS[1]) == 0 then redis.call('ZREM', KEYS[2], ARGV[3]) end
return 1
`;

// Rooms whose pending effects are due for a sweep, each claimed by one caller
// until ARGV[2] (a lease: it comes due again then, unless its effects all ran).
// ARGV: now, lease end, limit.
const CLAIM_EFFECTS = `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, room in ipairs(due) do redis.call('ZADD', KEYS[1], 'XX', ARGV[2], room) end
return due
`;

// Joins or leaves: their users' records written or removed, the room's
// revision and version bumped, the frame published; the room itself is not
// rewritten. ARGV: rev, version, next seq, #set, #deleted, the set users'
// (uuid, record) pairs, the deleted uuids, the frames.
const SAVE_USERS = `
local rev = redis.call('HGET', KEYS[1], 'rev')
if (rev or '0') ~= ARGV[1] then return -1 end
local sets = tonumber(ARGV[4])
local dels = tonumber(ARGV[5])
local i = 6
for _ = 1, sets do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]); i = i + 2 end
for _ = 1, dels do redis.call('HDEL', KEYS[2], ARGV[i]); i = i + 1 end
redis.call('HSET', KEYS[1], 'rev', tonumber(ARGV[1]) + 1, 'version', ARGV[2], 'seq', ARGV[3])
for j = i, #ARGV do redis.call('PUBLISH', KEYS[3], ARGV[j]) end
return 1
`;

/**
 * The generation of the live rooms' data: set once (by whichever replica finds
 * it missing first), gone with everything else when Redis loses its data.
 */
const EPOCH_KEY = 'room:epoch';

// The connection scripts (KEYS: connections, connection counts, then departures where named) share this start: the
// counts made from the connections when they are not there yet (a room stored before they were kept, or their key
// lost), then a connection recorded (ARGV: connection id, `userUuid|lastSeenMs`, user uuid) whoever held it before.
const COUNTED = `
local function counted()
  if redis.call('HEXISTS', KEYS[2], '~') == 1 then return end
  redis.call('DEL', KEYS[2])
  for _, v in ipairs(redis.call('HVALS', KEYS[1])) do redis.call('HINCRBY', KEYS[2], string.match(v, '^[^|]*'), 1) end
  redis.call('HSET', KEYS[2], '~', 1)
end
local function uncount(user)
  if redis.call('HINCRBY', KEYS[2], user, -1) <= 0 then redis.call('HDEL', KEYS[2], user); return 0 end
  return 1
end
local function record()
  counted()
  local before = redis.call('HGET', KEYS[1], ARGV[1])
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  local was = before and string.match(before, '^[^|]*')
  if was == ARGV[3] then return end
  if was then uncount(was) end
  redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
end
`;
// A connection made: recorded, and the user's departure (ARGV[4], KEYS[3]) called off.
const CONNECT = `${COUNTED}
record()
redis.call('ZREM', KEYS[3], ARGV[4])
`;
// A connection kept alive: recorded again (a sweep may have dropped it meanwhile).
const KEEP_ALIVE = `${COUNTED}
record()
`;
// A connection gone (ARGV[1]); when it was its user's last, they leave at ARGV[2] (departures, KEYS[3]), or now when
// ARGV[2] is '' and the user's uuid is answered. Answers false when nothing more is to be done.
const DISCONNECT = `${COUNTED}
counted()
local entry = redis.call('HGET', KEYS[1], ARGV[1])
if not entry then return false end
redis.call('HDEL', KEYS[1], ARGV[1])
local user = string.match(entry, '^[^|]*')
if uncount(user) == 1 then return false end
if ARGV[2] == '' then return user end
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[3] .. '|' .. user)
return false
`;
const USER_CONNECTED = `${COUNTED}
counted()
return redis.call('HEXISTS', KEYS[2], ARGV[1])
`;

// A room written back after Redis lost it, unless someone made it meanwhile:
// the room (without its users), its users' records, its clock, each member's
// departure (they leave unless they reconnect), and a room reset to its
// sockets. KEYS: room, users, clock, departures, channel. ARGV: rev, version,
// state, next seq, due, room uuid, leave at, #users, the users' (uuid, record)
// pairs, the frame.
const RESTORE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[1], 'state', ARGV[3], 'rev', ARGV[1], 'version', ARGV[2], 'seq', ARGV[4])
if ARGV[5] ~= '' then redis.call('ZADD', KEYS[3], ARGV[5], ARGV[6]) end
local i = 9
for _ = 1, tonumber(ARGV[8]) do
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
  redis.call('ZADD', KEYS[4], ARGV[7], ARGV[6] .. '|' .. ARGV[i])
  i = i + 2
end
redis.call('PUBLISH', KEYS[5], ARGV[i])
return 1
`;

// Sets the clock only if the room is still at the revision the due time was computed from.
const SET_DUE = `
local rev = redis.call('HGET', KEYS[1], 'rev')
if (rev or '0') ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('ZREM', KEYS[2], ARGV[3]) else redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3]) end
return 1
`;

/** Rooms whose parsed state this replica keeps (most recently used). */
const CACHED_ROOMS = 1000;

export class LiveStore {
  // A busy room's state is large (every listener's profile): parsing it for
  // each action would cost more than the action. The parsed state stays here
  // while Redis says its revision is still current. Never mutated: the rules
  // work on copies.
  private readonly cache = new Map<string, StoredRoom>();
  /** The data generation (`EPOCH_KEY`) the cached rooms belong to; undefined until first read. */
  private epoch: string | undefined;
  /** A look at the epoch in progress (and the recovery it started): loads wait for it. */
  private checking: Promise<void> | undefined;
  private onLoss: (held: StoredRoom[], first: boolean) => Promise<void> = async () => undefined;
  private readonly scripts: Record<
    'save' | 'ackEffect' | 'claimEffects' | 'saveUsers' | 'connect' | 'keepAlive' | 'disconnect' | 'userConnected' | 'restore' | 'setDue',
    RedisScript
  >;

  constructor(private readonly redis: Redis) {
    const script = (lua: string) => redisScript(redis, lua);
    this.scripts = {
      save: script(SAVE),
      ackEffect: script(ACK_EFFECT),
      claimEffects: script(CLAIM_EFFECTS),
      saveUsers: script(SAVE_USERS),
      connect: script(CONNECT),
      keepAlive: script(KEEP_ALIVE),
      disconnect: script(DISCONNECT),
      userConnected: script(USER_CONNECTED),
      restore: script(RESTORE),
      setDue: script(SET_DUE),
    };
    // Each (re)connection: a Redis that restarted without its data is noticed at once.
    redis.on('ready', () => void this.checkEpoch().catch(() => undefined));
  }

  /**
   * What to do when Redis lost the live rooms: `held` are the rooms this
   * replica still holds (to write back); `first` when this replica is the one
   * that found the data gone (it tells every BFF).
   */
  whenLost(handler: (held: StoredRoom[], first: boolean) => Promise<void>): void {
    this.onLoss = handler;
  }

  /**
   * Whether Redis still holds the generation of data this replica knows. When
   * it does not (flushed, or restarted empty), the rooms held here are handed
   * to the loss handler, once, before any load goes on; a restart that kept
   * the data changes nothing here. Run at each connection, each clock beat
   * (`dueRooms`) and whenever a room held here is missing from Redis.
   */
  checkEpoch(): Promise<void> {
    this.checking ??= this.readEpoch().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async readEpoch(): Promise<void> {
    const current = await this.redis.get(EPOCH_KEY);
    if (current !== null && current === this.epoch) return;
    const fresh = randomUUID();
    const first = current === null && (await this.redis.set(EPOCH_KEY, fresh, 'NX')) === 'OK';
    const known = this.epoch;
    this.epoch = first ? fresh : (current ?? (await this.redis.get(EPOCH_KEY)) ?? undefined);
    // This replica's first look (a start): no loss it can tell. A new Redis, or one written before
    // the epoch existed (the first deploy), sets it without resetting anyone.
    if (known === undefined) return;
    const held = [...this.cache.values()];
    this.cache.clear();
    await this.onLoss(held, first);
  }

  async load(roomUuid: string): Promise<StoredRoom | null> {
    if (this.checking) await this.checking;
    const cached = this.cache.get(roomUuid);
    if (cached) {
      const rev = await this.redis.hget(liveKeys.room(roomUuid), 'rev');
      if (Number(rev) === cached.rev) return cached;
      // Held here, gone from Redis: deleted, or Redis lost it (then it is written back first).
      if (rev === null) await this.checkEpoch();
    }
    const results = await this.redis
      .multi()
      .hmget(liveKeys.room(roomUuid), 'state', 'rev', 'version', 'seq')
      .hgetall(liveKeys.users(roomUuid))
      .exec();
    const [state, rev, version, seq] = results![0]![1] as Array<string | null>;
    const records = results![1]![1] as Record<string, string>;
    if (!state) {
      this.cache.delete(roomUuid);
      return null;
    }
    return this.remember(assemble(JSON.parse(state) as LiveRoom, records, Number(rev), Number(version), Number(seq ?? 0)));
  }

  private remember(stored: StoredRoom): StoredRoom {
    this.cache.delete(stored.room.roomUuid);
    this.cache.set(stored.room.roomUuid, stored);
    if (this.cache.size > CACHED_ROOMS) this.cache.delete(this.cache.keys().next().value!);
    return stored;
  }

  /**
   * Writes `next` if the room is still at `previous.rev`, publishing the patch
   * of what clients see (if anything changed) and the stateless messages.
   * Answers the room as stored, or null when another writer came first.
   */
  async save(
    previous: StoredRoom | null,
    next: LiveRoom,
    /** `name` null: a change of the server's part alone (clients see nothing, no patch is sent). */
    input: {
      name: StatefulFeedMessageName | null;
      stateless?: StatelessMessage[];
      due: number | null;
      now: number;
      /** Its effects, kept until they have run ((key, effect as kept) pairs), and when a sweep may run them. */
      effects?: { entries: Array<[string, string]>; sweepAt: number };
    },
  ): Promise<StoredRoom | null> {
    const patch =
      input.name === null
        ? []
        : diffClientState((previous?.room.client ?? {}) as Record<string, unknown>, next.client as unknown as Record<string, unknown>);
    let version = previous?.version ?? 0;
    const frames: string[] = [];
    for (const message of input.name === null ? [] : splitSongChange(input.name, patch)) {
      version += 1;
      frames.push(statefulFrame(next.roomUuid, message, version, input.now));
    }
    for (const message of input.stateless ?? []) frames.push(statelessFrame(next.roomUuid, message, input.now));
    // The users whose records changed (the rules copy the whole room, so each is compared by its JSON).
    let nextSeq = previous?.nextSeq ?? 0;
    const users = new Map<string, { seq: number; json: string }>();
    const set: string[] = [];
    for (const member of next.server.members) {
      const before = previous?.users.get(member.uuid);
      const seq = before?.seq ?? nextSeq++;
      const json = recordJson(next, member, seq);
      users.set(member.uuid, { seq, json });
      if (json !== before?.json) set.push(member.uuid, json);
    }
    const deleted = [...(previous?.users.keys() ?? [])].filter((uuid) => !users.has(uuid));
    const effects = input.effects?.entries ?? [];
    const keys = [
      liveKeys.room(next.roomUuid),
      liveKeys.clock,
      feedChannel(next.roomUuid),
      liveKeys.users(next.roomUuid),
      liveKeys.effects(next.roomUuid),
      liveKeys.effectsDue,
    ];
    const result = (await this.scripts.save.run(keys, [
      String(previous?.rev ?? 0),
      JSON.stringify(withoutUsers(next)),
      String(version),
      input.due === null ? '' : String(input.due),
      next.roomUuid,
      String(nextSeq),
      String(set.length / 2),
      String(deleted.length),
      String(effects.length),
      String(input.effects?.sweepAt ?? 0),
      ...set,
      ...deleted,
      ...effects.flat(),
      ...frames,
    ])) as number;
    if (result < 0) return null;
    return this.remember({ room: next, rev: (previous?.rev ?? 0) + 1, version, users, nextSeq });
  }

  /**
   * New users enter (`arrival` of domain/live/members.ts, in order): their
   * records are written and one `userJoined` published, the room is not
   * rewritten. Answers the stored room (the cached one, changed in place), or
   * null when another writer came first.
   */
  async addUsers(previous: StoredRoom, arrivals: Arrival[], now: number): Promise<StoredRoom | null> {
    if (previous.legacy) throw new Error('a room stored whole is saved whole');
    const records = arrivals.map((entry, i) => {
      const record: UserRecord = { seq: previous.nextSeq + i, member: entry.member, data: entry.data, joinedAt: entry.now };
      return { uuid: entry.member.uuid, seq: record.seq, json: JSON.stringify(record) };
    });
    const nextSeq = previous.nextSeq + arrivals.length;
    const version = previous.version + 1;
    const frame = statefulFrame(previous.room.roomUuid, { name: 'userJoined', statePatch: arrivals.flatMap((a) => a.patch) }, version, now);
    const set = records.flatMap((r) => [r.uuid, r.json]);
    if (!(await this.saveUsers(previous, { version, nextSeq, set, deleted: [], frame }))) return null;
    for (const entry of arrivals) admit(previous.room, entry);
    for (const r of records) previous.users.set(r.uuid, { seq: r.seq, json: r.json });
    return this.remember({ room: previous.room, rev: previous.rev + 1, version, users: previous.users, nextSeq });
  }

  /** Users who hold nothing else in the room leave (`departures` of domain/live/members.ts): one `userLeft`, as `addUsers`. */
  async removeUsers(previous: StoredRoom, departures: Departure[], now: number): Promise<StoredRoom | null> {
    if (previous.legacy) throw new Error('a room stored whole is saved whole');
    const version = previous.version + 1;
    const frame = statefulFrame(previous.room.roomUuid, { name: 'userLeft', statePatch: departures.flatMap((d) => d.patch) }, version, now);
    const deleted = departures.map((d) => d.userUuid);
    if (!(await this.saveUsers(previous, { version, nextSeq: previous.nextSeq, set: [], deleted, frame }))) return null;
    for (const entry of departures) release(previous.room, entry);
    for (const uuid of deleted) previous.users.delete(uuid);
    return this.remember({ room: previous.room, rev: previous.rev + 1, version, users: previous.users, nextSeq: previous.nextSeq });
  }

  private async saveUsers(
    previous: StoredRoom,
    change: { version: number; nextSeq: number; set: string[]; deleted: string[]; frame: string },
  ): Promise<boolean> {
    const roomUuid = previous.room.roomUuid;
    const keys = [liveKeys.room(roomUuid), liveKeys.users(roomUuid), feedChannel(roomUuid)];
    const result = (await this.scripts.saveUsers.run(keys, [
      String(previous.rev),
      String(change.version),
      String(change.nextSeq),
      String(change.set.length / 2),
      String(change.deleted.length),
      ...change.set,
      ...change.deleted,
      change.frame,
    ])) as number;
    return result > 0;
  }

  // --- effects kept until they have run ---

  /** An effect ran: it is forgotten, unless a newer one took its key since `json` was kept. */
  async ackEffect(roomUuid: string, key: string, json: string): Promise<void> {
    await this.scripts.ackEffect.run([liveKeys.effects(roomUuid), liveKeys.effectsDue], [key, json, roomUuid]);
  }

  /** Rooms whose pending effects are due at `now`, each claimed for this caller until `leaseUntil`. */
  claimEffectRooms(now: number, leaseUntil: number, limit = 100): Promise<string[]> {
    return this.scripts.claimEffects.run([liveKeys.effectsDue], [String(now), String(leaseUntil), String(limit)]) as Promise<string[]>;
  }

  /** A room's pending effects: (key, effect as kept) pairs. */
  async pendingEffects(roomUuid: string): Promise<Array<[string, string]>> {
    return Object.entries(await this.redis.hgetall(liveKeys.effects(roomUuid)));
  }

  async setDue(stored: StoredRoom, due: number | null): Promise<void> {
    await this.scripts.setDue.run(
      [liveKeys.room(stored.room.roomUuid), liveKeys.clock],
      [String(stored.rev), due === null ? '' : String(due), stored.room.roomUuid],
    );
  }

  /**
   * Writes back a room Redis lost, unless it exists again (another replica
   * wrote it back, or someone joined it first), and resets its sockets.
   * Its revision restarts at `now`, which no replica's copy of the lost data
   * can hold (revisions count writes from 1); its version goes on from the
   * copy's. Answers whether it was written.
   */
  async restore(stored: StoredRoom, restoration: Restoration, now: number): Promise<boolean> {
    const { room } = stored;
    let nextSeq = stored.nextSeq;
    const pairs = room.server.members.flatMap((member) => [
      member.uuid,
      recordJson(room, member, stored.users.get(member.uuid)?.seq ?? nextSeq++),
    ]);
    const keys = [
      liveKeys.room(room.roomUuid),
      liveKeys.users(room.roomUuid),
      liveKeys.clock,
      liveKeys.departures,
      feedChannel(room.roomUuid),
    ];
    const result = (await this.scripts.restore.run(keys, [
      String(now),
      String(stored.version + 1),
      JSON.stringify(withoutUsers(room)),
      String(nextSeq),
      restoration.due === null ? '' : String(restoration.due),
      room.roomUuid,
      String(restoration.leaveAt),
      String(pairs.length / 2),
      ...pairs,
      closingFrame(room.roomUuid, 'r', { name: 'roomReset', params: {} }, now),
    ])) as number;
    return result === 1;
  }

  /** Tells every BFF that Redis lost the live rooms: they reset all their sockets in rooms. */
  async announceLoss(): Promise<void> {
    await this.redis.publish(feedResyncChannel(this.redis.options.db ?? 0), String(Date.now()));
  }

  /** Publishes messages that change no state (animations, warnings). */
  async publish(roomUuid: string, messages: StatelessMessage[], now: number): Promise<void> {
    if (messages.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const message of messages) pipeline.publish(feedChannel(roomUuid), statelessFrame(roomUuid, message, now));
    await pipeline.exec();
  }

  async publishFrame(roomUuid: string, frame: string): Promise<void> {
    await this.redis.publish(feedChannel(roomUuid), frame);
  }

  /** Rooms whose clock is due at `now`; first makes sure Redis still holds the data known here (see `checkEpoch`). */
  async dueRooms(now: number, limit = 100): Promise<string[]> {
    const [epoch, due] = await Promise.all([
      this.redis.get(EPOCH_KEY),
      this.redis.zrangebyscore(liveKeys.clock, '-inf', now, 'LIMIT', 0, limit),
    ]);
    if (epoch !== null && epoch === this.epoch) return due;
    await this.checkEpoch();
    return this.redis.zrangebyscore(liveKeys.clock, '-inf', now, 'LIMIT', 0, limit);
  }

  async delete(roomUuid: string): Promise<void> {
    this.cache.delete(roomUuid);
    await this.redis
      .multi()
      .del(liveKeys.room(roomUuid), liveKeys.users(roomUuid), liveKeys.connections(roomUuid), liveKeys.connectionCounts(roomUuid))
      .zrem(liveKeys.clock, roomUuid)
      .exec();
  }

  // --- connections and departures ---

  /** Records a connection and cancels the user's pending departure. */
  async connect(roomUuid: string, connectionId: string, userUuid: string, now: number): Promise<void> {
    const keys = [liveKeys.connections(roomUuid), liveKeys.connectionCounts(roomUuid), liveKeys.departures];
    await this.scripts.connect.run(keys, [connectionId, `${userUuid}|${now}`, userUuid, `${roomUuid}|${userUuid}`]);
  }

  /**
   * Forgets a connection. When it was the user's last, they leave at `leaveAt`
   * unless they come back; with `leaveAt` null they leave now, and the user's
   * uuid is answered for the caller to let them go.
   */
  async disconnect(roomUuid: string, connectionId: string, leaveAt: number | null): Promise<string | undefined> {
    const keys = [liveKeys.connections(roomUuid), liveKeys.connectionCounts(roomUuid), liveKeys.departures];
    const leaving = (await this.scripts.disconnect.run(keys, [connectionId, leaveAt === null ? '' : String(leaveAt), roomUuid])) as
      | string
      | null;
    return leaving ?? undefined;
  }

  /** Whether the user holds a connection in the room: one field read, whatever the room's size. */
  async userConnected(roomUuid: string, userUuid: string): Promise<boolean> {
    const keys = [liveKeys.connections(roomUuid), liveKeys.connectionCounts(roomUuid)];
    return (await this.scripts.userConnected.run(keys, [userUuid])) === 1;
  }

  /** Marks connections as alive (the BFF holding them says so periodically). */
  async keepAlive(entries: Array<{ roomUuid: string; connectionId: string; userUuid: string }>, now: number): Promise<void> {
    if (entries.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const e of entries) {
      this.scripts.keepAlive.queue(
        pipeline,
        [liveKeys.connections(e.roomUuid), liveKeys.connectionCounts(e.roomUuid)],
        [e.connectionId, `${e.userUuid}|${now}`, e.userUuid],
      );
    }
    await pipeline.exec();
  }

  /** Drops connections not kept alive since `staleBefore` (their BFF is gone), scheduling departures. */
  async sweepStaleConnections(roomUuid: string, staleBefore: number, leaveAt: number): Promise<void> {
    const entries = await this.redis.hgetall(liveKeys.connections(roomUuid));
    for (const [connectionId, value] of Object.entries(entries)) {
      if (Number(value.split('|')[1]) < staleBefore) await this.disconnect(roomUuid, connectionId, leaveAt);
    }
  }

  /** Departures due at `now`: `{roomUuid, userUuid}`, claimed (each is handed to one caller only). */
  async claimDepartures(now: number, limit = 100): Promise<Array<{ roomUuid: string; userUuid: string }>> {
    const due = await this.redis.zrangebyscore(liveKeys.departures, '-inf', now, 'LIMIT', 0, limit);
    const claimed: Array<{ roomUuid: string; userUuid: string }> = [];
    for (const member of due) {
      if ((await this.redis.zrem(liveKeys.departures, member)) === 1) {
        const [roomUuid, userUuid] = member.split('|') as [string, string];
        claimed.push({ roomUuid, userUuid });
      }
    }
    return claimed;
  }

  /** Every room with live state (for the stale-connection sweep). */
  async liveRoomUuids(): Promise<string[]> {
    const uuids: string[] = [];
    let cursor = '0';
    do {
      const [nextCursor, keys] = await this.redis.scan(cursor, 'MATCH', 'room:live:*', 'COUNT', 500);
      cursor = nextCursor;
      uuids.push(...keys.map((k) => k.slice('room:live:'.length)));
    } while (cursor !== '0');
    return uuids;
  }
}

/** What a song change touches: the song, its votes and the DJ's count. */
const SONG_PATHS = /^\/(nowPlaying|voteCounts|vibeMeter|songsRemainingForDj)(\/|$)|^\/allUserData\/[^/]+\/songVotes(\/|$)/;

/**
 * A change that also starts or stops a song travels as two messages: its own
 * (e.g. `removedDj`), then `playedSong` with the song's part, since clients
 * learn of every change of `nowPlaying` from `playedSong` (ROOM-FEED.md).
 * The two parts touch different paths, so applying them in turn equals the whole.
 */
export function splitSongChange(
  name: StatefulFeedMessageName,
  patch: Operation[],
): Array<{ name: StatefulFeedMessageName; statePatch: Operation[] }> {
  if (patch.length === 0) return [];
  if (name === 'playedSong' || !patch.some((op) => op.path === '/nowPlaying' || op.path.startsWith('/nowPlaying/')))
    return [{ name, statePatch: patch }];
  const song = patch.filter((op) => SONG_PATHS.test(op.path));
  const rest = patch.filter((op) => !SONG_PATHS.test(op.path));
  return [...(rest.length > 0 ? [{ name, statePatch: rest }] : []), { name: 'playedSong', statePatch: song }];
}

function statefulFrame(
  roomUuid: string,
  message: { name: StatefulFeedMessageName; statePatch: Operation[] },
  version: number,
  now: number,
): string {
  return encodeFeedFrame({ kind: 's', version, userUuid: '', json: roomMessageJson({ roomUuid, sentAt: now, message, version }) });
}

/** The room as `state` keeps it: everything but its users (their records are in `room:users:<uuid>`). */
function withoutUsers(room: LiveRoom): LiveRoom {
  return {
    ...room,
    client: { ...room.client, allUserData: {}, allUsers: [], audienceUsers: [], floorUsers: [] },
    server: { ...room.server, members: [], joinedAt: {}, likedAt: {} },
  };
}

function recordJson(room: LiveRoom, member: Member, seq: number): string {
  const record: UserRecord = {
    seq,
    member,
    data: room.client.allUserData[member.uuid]!,
    joinedAt: room.server.joinedAt?.[member.uuid],
    likedAt: room.server.likedAt?.[member.uuid],
  };
  return JSON.stringify(record);
}

const asUser = (m: Member): ClientRoomUser => ({
  uuid: m.uuid,
  tokenRole: m.tokenRole,
  ...(m.highestRole ? { highestRole: m.highestRole } : {}),
  canDj: m.canDj,
});

/**
 * The room from its document and its users' records (in join order), the
 * user lists derived as the rules derive them. A room stored before its users
 * were kept apart holds them in its document: kept, and written apart at its next save.
 */
function assemble(room: LiveRoom, records: Record<string, string>, rev: number, version: number, storedSeq: number): StoredRoom {
  const users = new Map<string, { seq: number; json: string }>();
  if (room.server.members.length > 0) {
    for (const [i, m] of room.server.members.entries()) users.set(m.uuid, { seq: i, json: '' });
    return { room, rev, version, users, nextSeq: room.server.members.length, legacy: true };
  }
  const parsed = Object.entries(records)
    .map(([uuid, json]) => ({ uuid, json, record: JSON.parse(json) as UserRecord }))
    .sort((a, b) => a.record.seq - b.record.seq);
  const joinedAt: Record<string, number> = {};
  const likedAt: Record<string, number> = {};
  const allUserData: Record<string, ClientUserData> = {};
  const members: Member[] = [];
  let nextSeq = storedSeq;
  for (const { uuid, json, record } of parsed) {
    users.set(uuid, { seq: record.seq, json });
    members.push(record.member);
    allUserData[uuid] = record.data;
    if (record.joinedAt !== undefined) joinedAt[uuid] = record.joinedAt;
    if (record.likedAt !== undefined) likedAt[uuid] = record.likedAt;
    nextSeq = Math.max(nextSeq, record.seq + 1);
  }
  const onStage = new Set(room.client.djs.map((d) => d.uuid));
  const audience = members.filter((m) => !onStage.has(m.uuid));
  room.server = { ...room.server, members, joinedAt, likedAt };
  room.client = {
    ...room.client,
    allUserData,
    allUsers: members.filter((m) => m.tokenRole !== 'guest').map(asUser),
    audienceUsers: audience.map(asUser),
    floorUsers: audience.filter((m) => m.tokenRole !== 'guest').map(asUser),
  };
  return { room, rev, version, users, nextSeq };
}

function statelessFrame(roomUuid: string, { to, ...message }: StatelessMessage, now: number): string {
  const json = roomMessageJson({ roomUuid, sentAt: now, message });
  return encodeFeedFrame({ kind: to ? 'u' : 'e', version: 0, userUuid: to ?? '', json });
}

/** A frame to one user that closes their connections (kicked) or to all (room reset). */
export function closingFrame(
  roomUuid: string,
  kind: 'k' | 'r',
  message: StatelessFeedMessage<'kickedFromRoom' | 'roomReset'>,
  now: number,
  userUuid = '',
): string {
  return encodeFeedFrame({ kind, version: 0, userUuid, json: roomMessageJson({ roomUuid, sentAt: now, message }) });
}
