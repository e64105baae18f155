import { randomUUID } from 'node:crypto';
import { createRedis, dropDatabase, openServiceDatabase, type MikroORM, type Redis } from '@spinroom/platform';
import { uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roomDatabase } from '../src/db/database.js';
import { PgRoomStore } from '../src/db/room-store.js';
import { ROOM_DEFAULTS, type Room } from '../src/domain/room.js';

describe('what the joins leave to be written behind them (PostgreSQL)', () => {
  const databaseUrl = uniqueDatabaseUrl('room_behind');
  let orm: MikroORM;
  let store: PgRoomStore;
  let redis: Redis;
  /** Another replica's store, reading through Redis. */
  let cached: PgRoomStore;

  async function room(slug: string): Promise<Room> {
    return store.write(async (tx) => {
      const created = (await store.insert(tx, {
        ...ROOM_DEFAULTS,
        passwordHash: null,
        guestPasswordHash: null,
        posterUrl: null,
        externalUrl: null,
        discordGuildId: null,
        name: slug,
        slug,
      }))!;
      await store.upsertRole(tx, created.id, randomUUID(), 'owner', null);
      return created;
    });
  }

  const rows = async (userUuid: string) =>
    orm.em
      .fork()
      .execute<Array<{ room_id: number }>>(`select "room_id" from "recent_room" where "user_uuid" = ? order by "visited_at" desc`, [
        userUuid,
      ]);

  beforeAll(async () => {
    orm = await openServiceDatabase('room', databaseUrl, roomDatabase);
    store = new PgRoomStore(orm);
    redis = createRedis(process.env.REDIS_URL!);
    cached = new PgRoomStore(orm, undefined, undefined, redis);
  });
  afterAll(async () => {
    redis?.disconnect();
    await orm?.close();
    await dropDatabase(databaseUrl);
  });

  it('records recent rooms without waiting on the database, writes them together, keeps the last ones, and loses none on stop', async () => {
    const rooms = await Promise.all(['behind-a', 'behind-b', 'behind-c', 'behind-d'].map(room));
    const [a, b, c, d] = rooms as [Room, Room, Room, Room];
    const alice = randomUUID();
    const bob = randomUUID();
    await store.recordRecent(alice, a.id, 2);
    await new Promise((r) => setTimeout(r, 5));
    await store.recordRecent(alice, b.id, 2);
    await new Promise((r) => setTimeout(r, 5));
    await store.recordRecent(bob, a.id, 2);
    // Nothing written yet: the visits wait in memory.
    expect(await rows(alice)).toEqual([]);
    // Reading a user's list writes theirs first, most recent first.
    expect((await store.list({ kind: 'recent', userUuid: alice }, { limit: 10, offset: 0 })).rooms.map((r) => r.slug)).toEqual([
      'behind-b',
      'behind-a',
    ]);
    expect((await rows(bob)).map((r) => r.room_id)).toEqual([a.id]);
    // A third room pushes the oldest out (keep 2); a room deleted before the write is skipped, the rest still written.
    await store.recordRecent(alice, c.id, 2);
    await store.recordRecent(bob, d.id, 2);
    await store.write((tx) => store.delete(tx, d));
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await rows(alice)).map((r) => r.room_id)).toEqual([c.id, b.id]);
    expect((await rows(bob)).map((r) => r.room_id)).toEqual([a.id]);
    // A graceful stop writes what waits.
    await store.recordRecent(bob, c.id, 2);
    await store.stop();
    expect((await rows(bob)).map((r) => r.room_id)).toEqual([c.id, a.id]);
    // Forgetting a user forgets their waiting visits too.
    await store.recordRecent(bob, b.id, 2);
    await store.forgetUser(bob, ['dj']);
    await store.stop();
    expect(await rows(bob)).toEqual([]);
  });

  it('reads rooms and roles from Redis, in step with every committed change of them', async () => {
    const made = await room('cached-room');
    const userUuid = randomUUID();
    // Read once (by uuid: the id is learnt from PostgreSQL), then from Redis.
    expect((await cached.find({ uuid: made.uuid }))?.name).toBe('cached-room');
    expect(await redis.exists(`room:record:${made.id}`)).toBe(0);
    expect((await cached.find({ uuid: made.uuid }))?.name).toBe('cached-room');
    expect(await redis.exists(`room:record:${made.id}`)).toBe(1);
    const read = (await cached.find({ uuid: made.uuid }))!;
    expect(read.createdAt).toBeInstanceOf(Date);
    expect(read).toEqual(await store.find({ id: made.id }));
    // A change through the store: gone from Redis at the commit, read fresh after.
    await cached.write(async (tx) => cached.update(tx, (await cached.find({ id: made.id }, tx))!, { name: 'renamed' }));
    expect((await cached.find({ uuid: made.uuid }))?.name).toBe('renamed');
    // Roles: granted, expiring, removed.
    await cached.write((tx) => cached.upsertRole(tx, made.id, userUuid, 'moderator', null));
    await cached.write((tx) => cached.upsertRole(tx, made.id, userUuid, 'kicked', new Date(Date.now() + 300)));
    expect((await cached.activeRoles([made.id], userUuid)).map((r) => r.role)).toEqual(['moderator', 'kicked']);
    expect((await cached.activeRoles([made.id], userUuid))[0]!.createdAt).toBeInstanceOf(Date);
    await new Promise((r) => setTimeout(r, 400));
    expect((await cached.activeRoles([made.id], userUuid)).map((r) => r.role)).toEqual(['moderator']);
    await cached.write((tx) => cached.deleteRole(tx, made.id, userUuid, 'moderator'));
    expect(await cached.activeRoles([made.id], userUuid)).toEqual([]);
    await cached.write((tx) => cached.upsertRole(tx, made.id, userUuid, 'banned', null));
    await cached.write((tx) => cached.deleteRolesOfUser(tx, userUuid, ['banned']));
    expect(await cached.activeRoles([made.id], userUuid)).toEqual([]);
    await cached.write((tx) => cached.upsertRole(tx, made.id, userUuid, 'dj', null));
    await cached.forgetUser(userUuid, ['dj']);
    expect(await cached.activeRoles([made.id], userUuid)).toEqual([]);
    expect((await cached.ownerOf([made.id])).get(made.id)).toBe((await store.ownerOf([made.id])).get(made.id));
    // A read that began before a change never puts back what the change replaced.
    await redis.del(`room:record:${made.id}`);
    const generation = await redis.get(`room:record-gen:${made.id}`);
    await cached.write(async (tx) => cached.update(tx, (await cached.find({ id: made.id }, tx))!, { name: 'after' }));
    await redis.eval(
      `local gen = redis.call('GET', KEYS[2]) or '0' if gen ~= ARGV[1] then return 0 end redis.call('SET', KEYS[1], ARGV[2]) return 1`,
      2,
      `room:record:${made.id}`,
      `room:record-gen:${made.id}`,
      generation ?? '0',
      'stale',
    );
    expect((await cached.find({ uuid: made.uuid }))?.name).toBe('after');
    // Deleted: no room.
    await cached.write(async (tx) => cached.delete(tx, (await cached.find({ id: made.id }, tx))!));
    expect(await cached.find({ uuid: made.uuid })).toBeNull();
  });
});
