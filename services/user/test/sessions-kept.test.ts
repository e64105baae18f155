// Ended sessions outlive a Redis that lost its data: the user service records
// each end in PostgreSQL and writes them back when Redis's marker is gone (a
// restart without persistence, a flush), or on its periodic pass (a Redis
// restored from an older snapshot keeps the marker but not the later ends).
import { randomUUID } from 'node:crypto';
import {
  createOrm,
  createRedis,
  dropDatabase,
  ensureDatabase,
  migrate,
  SESSIONS_KEPT_KEY,
  SessionRevocations,
  sessionsValidAfterKey,
  type MikroORM,
} from '@spinroom/platform';
import { isolatedRedisUrl, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import { PgSessionEndingStore } from '../src/db/session-ending-store.js';
import { UserEntity } from '../src/db/user-entity.js';
import { Sessions } from '../src/domain/sessions.js';

const KEEP_SECONDS = 3600;

describe('ended sessions when Redis loses its data', () => {
  const databaseUrl = uniqueDatabaseUrl('user_sessions_kept');
  let orm: MikroORM;
  let redis: Redis;
  let revocations: SessionRevocations;
  let sessions: Sessions;
  /**
   * Redis losing its data, as far as this test's users go: the marker and their ends (the test's Redis database
   * may be another test's too, so nothing else of it is flushed).
   */
  const lose = (...users: string[]) => redis.del(SESSIONS_KEPT_KEY, ...users.map(sessionsValidAfterKey));
  /** What another process's verifier reads (one in this process remembers what it read before). */
  const verifier = () => new SessionRevocations(redis, { cacheMs: 0 });

  beforeAll(async () => {
    await ensureDatabase(databaseUrl);
    orm = await createOrm({ databaseUrl, entities: [UserEntity], migrations });
    await migrate(orm);
    redis = createRedis(await isolatedRedisUrl());
    revocations = new SessionRevocations(redis, { cacheMs: 0 });
    sessions = new Sessions(revocations, KEEP_SECONDS, new PgSessionEndingStore(orm));
  });

  afterAll(async () => {
    redis?.disconnect();
    await orm?.close();
    await dropDatabase(databaseUrl);
  });

  it('writes them back when Redis lost them, so tokens issued before an end stay refused', async () => {
    const [ana, bo] = [randomUUID(), randomUUID()];
    const issuedBefore = Date.now() - 1000;
    await sessions.endSessions(ana);
    await sessions.endSessions(bo);
    await lose();
    // No marker, so the look writes them back (unless another user service on this shared test database wrote
    // the marker back first, with its own ends: then the periodic pass does).
    expect((await sessions.keepEndsInRedis()) ?? (await sessions.keepEndsInRedis(true))).toBeGreaterThanOrEqual(2);
    expect(await verifier().isCurrent(ana, issuedBefore)).toBe(false);

    await lose(ana, bo); // Redis restarted without its data
    expect(await verifier().isCurrent(ana, issuedBefore)).toBe(true); // what the keeper is for
    expect((await sessions.keepEndsInRedis()) ?? (await sessions.keepEndsInRedis(true))).toBeGreaterThanOrEqual(2);
    expect(await verifier().isCurrent(ana, issuedBefore)).toBe(false);
    expect(await verifier().isCurrent(bo, issuedBefore)).toBe(false);
    expect(await verifier().isCurrent(ana, Date.now() + 1000)).toBe(true); // a token issued since stands
    // Kept for what is left of a token's life since the end, not a whole one again.
    const ttl = await redis.ttl(sessionsValidAfterKey(ana));
    expect(ttl).toBeGreaterThan(KEEP_SECONDS - 30);
    expect(ttl).toBeLessThanOrEqual(KEEP_SECONDS);
    // Held: the next look writes nothing.
    expect(await sessions.keepEndsInRedis()).toBeNull();
  });

  it('never undoes a later end, and the periodic pass restores what an older snapshot lacks', async () => {
    const ana = randomUUID();
    await sessions.endSessions(ana);
    const recorded = Number(await redis.get(sessionsValidAfterKey(ana)));
    // A later end in Redis than the one written back (ended meanwhile): it stays.
    await redis.set(sessionsValidAfterKey(ana), String(recorded + 60_000));
    await sessions.keepEndsInRedis(true);
    expect(Number(await redis.get(sessionsValidAfterKey(ana)))).toBe(recorded + 60_000);

    // An older snapshot: the marker is there, this end is not.
    const bo = randomUUID();
    await sessions.endSessions(bo);
    await redis.del(sessionsValidAfterKey(bo));
    expect(await sessions.keepEndsInRedis()).toBeNull();
    expect(await redis.get(sessionsValidAfterKey(bo))).toBeNull();
    await sessions.keepEndsInRedis(true);
    expect(await verifier().isCurrent(bo, Date.now() - 5_000)).toBe(false);

    // Ends older than a token's life are past: nothing to write back.
    await orm.em.fork().execute(`update "session_ending" set "valid_after" = now() - interval '2 hours' where "user_uuid" = ?`, [bo]);
    await lose(bo);
    await sessions.keepEndsInRedis();
    expect(await redis.get(sessionsValidAfterKey(bo))).toBeNull();
  });
});
