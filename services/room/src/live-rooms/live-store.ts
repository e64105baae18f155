import {
  encodeFeedFrame,
  feedChannel,
  roomMessageJson,
  type Redis,
  type StatefulFeedMessageName,
  type StatelessFeedMessage,
} from '@spinroom/platform';
import type { Operation } from 'fast-json-patch';
import { diffClientState } from '../domain/live/patch.js';
import type { StatelessMessage } from '../domain/live/transitions.js';
import type { LiveRoom } from '../domain/live/state.js';

/** Redis keys of the live rooms (`room:<entity>:<id>`). */
export const liveKeys = {
  room: (roomUuid: string) => `room:live:${roomUuid}`,
  /** Rooms by when they next need the clock (ms). */
  clock: 'room:clock',
  /** The connections in a room: connection id -> `userUuid|lastSeenMs`. */
  connections: (roomUuid: string) => `room:connections:${roomUuid}`,
  /** `roomUuid|userUuid` by when that user leaves, unless they connect again. */
  departures: 'room:departures',
};

export interface StoredRoom {
  room: LiveRoom;
  /** Bumped by every write: the compare-and-set guard. */
  rev: number;
  /** Bumped by every write clients see: the feed's version. */
  version: number;
}

// One script per transition: compare the revision, write the state, set the
// room's clock, and publish its frames, all or nothing, in this order.
const SAVE = `
local rev = redis.call('HGET', KEYS[1], 'rev')
if (rev or '0') ~= ARGV[1] then return -1 end
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'rev', tonumber(ARGV[1]) + 1, 'version', ARGV[3])
if ARGV[4] == '' then redis.call('ZREM', KEYS[2], ARGV[5]) else redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5]) end
for i = 6, #ARGV do redis.call('PUBLISH', KEYS[3], ARGV[i]) end
return tonumber(ARGV[3])
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

  constructor(private readonly redis: Redis) {}

  async load(roomUuid: string): Promise<StoredRoom | null> {
    const cached = this.cache.get(roomUuid);
    if (cached && Number(await this.redis.hget(liveKeys.room(roomUuid), 'rev')) === cached.rev) return cached;
    const [state, rev, version] = await this.redis.hmget(liveKeys.room(roomUuid), 'state', 'rev', 'version');
    if (!state) {
      this.cache.delete(roomUuid);
      return null;
    }
    return this.remember({ room: JSON.parse(state) as LiveRoom, rev: Number(rev), version: Number(version) });
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
   * Answers the new version, or null when another writer came first.
   */
  async save(
    previous: StoredRoom | null,
    next: LiveRoom,
    /** `name` null: a change of the server's part alone (clients see nothing, no patch is sent). */
    input: { name: StatefulFeedMessageName | null; stateless?: StatelessMessage[]; due: number | null; now: number },
  ): Promise<{ version: number; patched: boolean } | null> {
    const patch =
      input.name === null
        ? []
        : diffClientState((previous?.room.client ?? {}) as Record<string, unknown>, next.client as unknown as Record<string, unknown>);
    let version = previous?.version ?? 0;
    const frames: string[] = [];
    for (const message of input.name === null ? [] : splitSongChange(input.name, patch)) {
      version += 1;
      frames.push(
        encodeFeedFrame({
          kind: 's',
          version,
          userUuid: '',
          json: roomMessageJson({ roomUuid: next.roomUuid, sentAt: input.now, message, version }),
        }),
      );
    }
    for (const message of input.stateless ?? []) frames.push(statelessFrame(next.roomUuid, message, input.now));
    const result = (await this.redis.eval(
      SAVE,
      3,
      liveKeys.room(next.roomUuid),
      liveKeys.clock,
      feedChannel(next.roomUuid),
      String(previous?.rev ?? 0),
      JSON.stringify(next),
      String(version),
      input.due === null ? '' : String(input.due),
      next.roomUuid,
      ...frames,
    )) as number;
    if (result < 0) return null;
    this.remember({ room: next, rev: (previous?.rev ?? 0) + 1, version });
    return { version, patched: frames.length > 0 };
  }

  async setDue(stored: StoredRoom, due: number | null): Promise<void> {
    await this.redis.eval(
      SET_DUE,
      2,
      liveKeys.room(stored.room.roomUuid),
      liveKeys.clock,
      String(stored.rev),
      due === null ? '' : String(due),
      stored.room.roomUuid,
    );
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

  /** Rooms whose clock is due at `now`. */
  dueRooms(now: number, limit = 100): Promise<string[]> {
    return this.redis.zrangebyscore(liveKeys.clock, '-inf', now, 'LIMIT', 0, limit);
  }

  async delete(roomUuid: string): Promise<void> {
    this.cache.delete(roomUuid);
    await this.redis.multi().del(liveKeys.room(roomUuid), liveKeys.connections(roomUuid)).zrem(liveKeys.clock, roomUuid).exec();
  }

  // --- connections and departures ---

  /** Records a connection and cancels the user's pending departure. */
  async connect(roomUuid: string, connectionId: string, userUuid: string, now: number): Promise<void> {
    await this.redis
      .multi()
      .hset(liveKeys.connections(roomUuid), connectionId, `${userUuid}|${now}`)
      .zrem(liveKeys.departures, `${roomUuid}|${userUuid}`)
      .exec();
  }

  /**
   * Forgets a connection. When it was the user's last, they leave at `leaveAt`
   * unless they come back; with `leaveAt` null they leave now, and the user's
   * uuid is answered for the caller to let them go.
   */
  async disconnect(roomUuid: string, connectionId: string, leaveAt: number | null): Promise<string | undefined> {
    const entry = await this.redis.hget(liveKeys.connections(roomUuid), connectionId);
    if (!entry) return undefined;
    const userUuid = entry.split('|')[0]!;
    await this.redis.hdel(liveKeys.connections(roomUuid), connectionId);
    if (await this.userConnected(roomUuid, userUuid)) return undefined;
    if (leaveAt === null) return userUuid;
    await this.redis.zadd(liveKeys.departures, leaveAt, `${roomUuid}|${userUuid}`);
    return undefined;
  }

  async userConnected(roomUuid: string, userUuid: string): Promise<boolean> {
    const entries = await this.redis.hvals(liveKeys.connections(roomUuid));
    return entries.some((e) => e.split('|')[0] === userUuid);
  }

  /** Marks connections as alive (the BFF holding them says so periodically). */
  async keepAlive(entries: Array<{ roomUuid: string; connectionId: string; userUuid: string }>, now: number): Promise<void> {
    if (entries.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const e of entries) pipeline.hset(liveKeys.connections(e.roomUuid), e.connectionId, `${e.userUuid}|${now}`);
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
