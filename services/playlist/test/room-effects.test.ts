import { randomUUID } from 'node:crypto';
import { createLogger, dropDatabase, openServiceDatabase, type MikroORM } from '@spinroom/platform';
import { eventually, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playlistServiceConfig } from '../src/config.js';
import { PgCrateStore } from '../src/db/crate-store.js';
import { playlistDatabase } from '../src/db/database.js';
import { pruneRoomEffects, ROOM_EFFECT_DEFAULTS, startRoomEffectPruner } from '../src/domain/room-effects.js';

const DAY = 24 * 3_600_000;
const WEEK = 7 * DAY;

describe('the room effects applied here (room_effect), pruned by age', () => {
  const databaseUrl = uniqueDatabaseUrl('playlist_room_effects');
  let orm: MikroORM;
  let store: PgCrateStore;

  beforeAll(async () => {
    orm = await openServiceDatabase('playlist', databaseUrl, playlistDatabase);
    store = new PgCrateStore(orm);
  });
  afterAll(async () => {
    await orm?.close();
    await dropDatabase(databaseUrl);
  });

  /** Records effects as applied `ageMs` ago; their keys. */
  const applied = async (count: number, ageMs: number): Promise<string[]> => {
    const keys = Array.from({ length: count }, () => `requeue:${randomUUID()}`);
    for (const key of keys) expect(await store.claimEffect(orm.em.fork(), key)).toBe(true);
    await orm.em
      .fork()
      .execute(`update "room_effect" set "applied_at" = now() - ? * interval '1 millisecond' where "key" in (?)`, [ageMs, keys]);
    return keys;
  };
  const kept = async (keys: string[]): Promise<number> =>
    Number(
      (await orm.em.fork().execute<Array<{ n: string }>>(`select count(*) as "n" from "room_effect" where "key" in (?)`, [keys]))[0]!.n,
    );

  it('forgets the effects applied before the retention, in batches, and keeps the younger ones (a replay still finds them)', async () => {
    const old = await applied(5, WEEK + DAY);
    const young = [...(await applied(3, WEEK - DAY)), ...(await applied(2, 0))];

    const batches: number[] = [];
    const counted = {
      pruneEffects: async (before: Date, limit: number) => {
        const n = await store.pruneEffects(before, limit);
        batches.push(n);
        return n;
      },
    };
    expect(await pruneRoomEffects(counted, { retentionMs: WEEK, batch: 2 })).toBe(5);
    expect(batches).toEqual([2, 2, 1]);
    expect(await kept(old)).toBe(0);
    expect(await kept(young)).toBe(5);

    // An effect still remembered is applied once; a forgotten one would be applied again.
    expect(await store.claimEffect(orm.em.fork(), young[0]!)).toBe(false);
    expect(await store.claimEffect(orm.em.fork(), old[0]!)).toBe(true);
    expect(await pruneRoomEffects(store, { retentionMs: WEEK, batch: 2 })).toBe(0);
  });

  it('is pruned periodically, and stops', async () => {
    const old = await applied(3, WEEK + DAY);
    const young = await applied(1, DAY);
    const pruner = startRoomEffectPruner(store, {
      retentionMs: WEEK,
      batch: 100,
      everyMs: 50,
      logger: createLogger('playlist', { level: 'silent' }),
    });
    try {
      await eventually(async () => ((await kept(old)) === 0 ? true : undefined), 10_000, 50);
      expect(await kept(young)).toBe(1);
    } finally {
      await pruner.stop();
    }
    const later = await applied(1, WEEK + DAY);
    await new Promise((r) => setTimeout(r, 200));
    expect(await kept(later)).toBe(1); // stopped: nothing prunes any more
  });

  it('keeps them a week unless told otherwise, and never less than the day the room service replays an effect for, with a margin', () => {
    expect(playlistServiceConfig.ROOM_EFFECT_RETENTION_HOURS.parse(undefined)).toBeUndefined();
    expect(ROOM_EFFECT_DEFAULTS).toEqual({ retentionHours: 168, everyMs: 3_600_000, batch: 1000 });
    expect(playlistServiceConfig.ROOM_EFFECT_RETENTION_HOURS.parse('48')).toBe(48);
    expect(playlistServiceConfig.ROOM_EFFECT_RETENTION_HOURS.safeParse('24').success).toBe(false);
    expect(playlistServiceConfig.ROOM_EFFECT_PRUNE_MS.parse('60000')).toBe(60_000);
    expect(playlistServiceConfig.ROOM_EFFECT_PRUNE_BATCH.safeParse('0').success).toBe(false);
  });
});
