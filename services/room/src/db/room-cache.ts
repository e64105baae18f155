import { type Redis, type RedisScript, redisScript } from '@spinroom/platform';
import type { Room } from '../domain/room.js';
import type { RoomRole } from '../domain/room-roles.js';

/** A room and the roles in it that were unexpired when read (expiry is checked again at each read). */
export interface RoomRecord {
  room: Room;
  roles: RoomRole[];
}

/** How long a record stays in Redis unread by a change (s): a bound on staleness if a change were ever missed. */
const TTL_SECONDS = 300;

// Stores a record read from PostgreSQL only if no change of the room came
// since the read began (its generation is still the one seen before the read).
const SET_IF_UNCHANGED = `
local gen = redis.call('GET', KEYS[2]) or '0'
if gen ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 1
`;

const keys = {
  record: (roomId: number) => `room:record:${roomId}`,
  /** Bumped by every committed change of the room or its roles. */
  generation: (roomId: number) => `room:record-gen:${roomId}`,
};

/**
 * Rooms and their roles read from Redis, kept in step with PostgreSQL: every
 * committed change of a room or of its roles bumps the room's generation and
 * drops its record (PgRoomStore.write), and a record read from PostgreSQL is
 * stored only if no change came meanwhile, so a slow reader never puts back
 * what a change replaced.
 */
export class RoomCache {
  private readonly setIfUnchanged: RedisScript;

  constructor(private readonly redis: Redis) {
    this.setIfUnchanged = redisScript(redis, SET_IF_UNCHANGED);
  }

  /** The records of these rooms (absent: no such room), those not in Redis read by `load` and stored. */
  async get(roomIds: number[], load: (roomIds: number[]) => Promise<Map<number, RoomRecord>>): Promise<Map<number, RoomRecord>> {
    const found = new Map<number, RoomRecord>();
    if (roomIds.length === 0) return found;
    const ids = [...new Set(roomIds)];
    const cached = await this.redis.mget(...ids.map(keys.record));
    const missing: number[] = [];
    for (const [i, json] of cached.entries()) {
      if (json) found.set(ids[i]!, revive(JSON.parse(json) as RoomRecord));
      else missing.push(ids[i]!);
    }
    if (missing.length === 0) return found;
    const generations = await this.redis.mget(...missing.map(keys.generation));
    const loaded = await load(missing);
    const pipeline = this.redis.pipeline();
    for (const [i, roomId] of missing.entries()) {
      const record = loaded.get(roomId);
      if (!record) continue;
      found.set(roomId, record);
      this.setIfUnchanged.queue(
        pipeline,
        [keys.record(roomId), keys.generation(roomId)],
        [generations[i] ?? '0', JSON.stringify(record), String(TTL_SECONDS)],
      );
    }
    await pipeline.exec();
    return found;
  }

  /** After a commit that changed these rooms or their roles. */
  async invalidate(roomIds: Iterable<number>): Promise<void> {
    const ids = [...new Set(roomIds)];
    if (ids.length === 0) return;
    const multi = this.redis.multi();
    for (const id of ids) multi.incr(keys.generation(id)).expire(keys.generation(id), 86_400).del(keys.record(id));
    await multi.exec();
  }
}

const date = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(value as string));

function revive(record: RoomRecord): RoomRecord {
  const room = record.room as Room & Record<string, unknown>;
  room.createdAt = date(room.createdAt)!;
  room.updatedAt = date(room.updatedAt)!;
  for (const role of record.roles) {
    role.expirationTime = date(role.expirationTime);
    role.createdAt = date(role.createdAt)!;
    role.updatedAt = date(role.updatedAt)!;
  }
  return record;
}
