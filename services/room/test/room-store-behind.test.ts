import { randomUUID } from 'node:crypto';
import { dropDatabase, openServiceDatabase, type MikroORM } from '@spinroom/platform';
import { uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roomDatabase } from '../src/db/database.js';
import { PgRoomStore } from '../src/db/room-store.js';
import { ROOM_DEFAULTS, type Room } from '../src/domain/room.js';

describe('what the joins leave to be written behind them (PostgreSQL)', () => {
  const databaseUrl = uniqueDatabaseUrl('room_behind');
  let orm: MikroORM;
  let store: PgRoomStore;

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
  });
  afterAll(async () => {
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
});
