import { randomUUID } from 'node:crypto';
import { dropDatabase, openServiceDatabase, type MikroORM } from '@spinroom/platform';
import { outcome, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointsDatabase } from '../src/db/database.js';
import { PgRankingStore } from '../src/db/ranking-store.js';
import { PgSeasonStore } from '../src/db/season-store.js';
import { POINTS_BELOW_ZERO, RANKING_STATUS_NOT_FOUND, Rankings } from '../src/domain/rankings.js';
import { NO_CURRENT_SEASON, SEASON_NOT_FOUND, Seasons } from '../src/domain/seasons.js';
import type { Actor } from '../src/domain/tokens.js';

const ADMIN: Actor = { userUuid: randomUUID(), role: 'admin', kind: 'user' };
const USER: Actor = { userUuid: randomUUID(), role: 'user', kind: 'user' };
const SERVICE: Actor = { userUuid: 'service:room', role: 'service', kind: 'service' };

describe('rankings on PostgreSQL', () => {
  const databaseUrl = uniqueDatabaseUrl('points_rankings');
  let orm: MikroORM;
  let now = new Date('2025-12-01T00:00:00Z');
  let seasons: Seasons;
  let rankings: Rankings;
  const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];

  beforeAll(async () => {
    orm = await openServiceDatabase('points', databaseUrl, pointsDatabase);
    seasons = new Seasons(new PgSeasonStore(orm), () => now);
    rankings = new Rankings(new PgRankingStore(orm), seasons, () => now);
  });
  afterAll(async () => {
    await orm.close();
    await dropDatabase(databaseUrl);
  });

  const give = (userUuid: string, points: number, extra: { seasonId?: string; idempotencyKey?: string } = {}) =>
    rankings.handlePoints(ADMIN, { userUuid, points, reason: 'test', ...extra });

  it('ranks users per season and over all time, from what admins and services give', async () => {
    // Before any season: lifetime points only.
    expect(await rankings.current(a)).toEqual({ season: null, rankingStatus: null });
    expect((await give(a, 2)).rankingStatus).toBeNull();
    expect(await outcome(rankings.seasonRanking({}, { take: 10, skip: 0 }))).toBe(`404 ${NO_CURRENT_SEASON}`);

    const winter = await seasons.create(ADMIN, { name: 'Winter', start: new Date('2026-01-01T00:00:00Z') });
    const spring = await seasons.create(ADMIN, { name: 'Spring', start: new Date('2026-04-01T00:00:00Z') });
    now = new Date('2026-02-01T00:00:00Z');
    await give(a, 7);
    now = new Date('2026-04-15T00:00:00Z');
    expect(await outcome(rankings.handlePoints(USER, { userUuid: a, points: 1, reason: 'x' }))).toBe('403 Only admins may handle points');
    expect(await outcome(give(a, 0))).toBe('400 points must be a whole number from -1000000 to 1000000, not 0');
    expect(await outcome(give(a, 1, { seasonId: randomUUID() }))).toBe(`404 ${SEASON_NOT_FOUND}`);
    const first = await give(a, 10, { idempotencyKey: 'bonus-1' });
    expect(first).toMatchObject({
      replayed: false,
      point: { kind: 'admin', amount: 10, seasonId: spring.id },
      rankingStatus: { balance: 10, rank: 1 },
    });
    const again = await give(a, 10, { idempotencyKey: 'bonus-1' });
    expect([again.replayed, again.point.id, again.lifetime.balance]).toEqual([true, first.point.id, 19]);
    now = new Date('2026-04-16T00:00:00Z');
    await give(b, 12);
    now = new Date('2026-04-17T00:00:00Z');
    await give(c, 10); // ties with a, who got there first
    expect(await outcome(give(b, -13))).toBe(`409 ${POINTS_BELOW_ZERO}`);
    now = new Date('2026-04-18T00:00:00Z');
    expect((await give(b, -2)).rankingStatus).toMatchObject({ balance: 10, rank: 3 });
    // A winter adjustment goes to winter.
    expect((await give(c, 1, { seasonId: winter.id })).rankingStatus).toMatchObject({
      seasonId: winter.id,
      seasonName: 'Winter',
      balance: 1,
      rank: 2,
    });

    expect(await outcome(rankings.servicePoints(ADMIN, { userUuid: c, points: 3, reason: 'reward', idempotencyKey: 'k' }))).toBe(
      '403 Only services may add points here',
    );
    const reward = await rankings.servicePoints(SERVICE, { userUuid: c, points: 3, reason: 'reward', idempotencyKey: 'k' });
    expect(reward).toMatchObject({ replayed: false, point: { kind: 'service', amount: 3 }, rankingStatus: { balance: 13, rank: 1 } });
    expect((await rankings.servicePoints(SERVICE, { userUuid: c, points: 3, reason: 'reward', idempotencyKey: 'k' })).replayed).toBe(true);

    const current = await rankings.seasonRanking({}, { take: 10, skip: 0 }, b);
    expect(current.season.id).toBe(spring.id);
    expect(current.total).toBe(3);
    expect(current.rankings.map((s) => [s.userUuid, s.balance, s.rank])).toEqual([
      [c, 13, 1],
      [a, 10, 2],
      [b, 10, 3],
    ]);
    expect(current.me).toMatchObject({ userUuid: b, rank: 3 });
    expect((await rankings.seasonRanking({}, { take: 1, skip: 1 })).rankings.map((s) => [s.userUuid, s.rank])).toEqual([[a, 2]]);
    expect(
      (await rankings.seasonRanking({ seasonName: 'Winter' }, { take: 10, skip: 0 })).rankings.map((s) => [s.userUuid, s.balance]),
    ).toEqual([
      [a, 7],
      [c, 1],
    ]);
    expect(await outcome(rankings.seasonRanking({ seasonName: 'Autumn' }, { take: 10, skip: 0 }))).toBe(`404 ${SEASON_NOT_FOUND}`);

    const lifetime = await rankings.lifetimeRanking({ take: 10, skip: 0 }, a);
    expect(lifetime.rankings.map((s) => [s.userUuid, s.balance])).toEqual([
      [a, 19],
      [c, 14],
      [b, 10],
    ]);
    expect(lifetime.me).toMatchObject({ rank: 1, seasonId: null });
    expect(await rankings.lifetime(randomUUID())).toMatchObject({ balance: 0, rank: 0 });
    expect((await rankings.userStatuses(a)).map((s) => [s.seasonName, s.balance])).toEqual([
      ['Spring', 10],
      ['Winter', 7],
    ]);
    expect(await rankings.current(b)).toMatchObject({ season: { id: spring.id }, rankingStatus: { balance: 10, rank: 3 } });
    expect((await rankings.current(randomUUID())).rankingStatus).toBeNull();

    expect(await outcome(rankings.list(USER, { lifetime: false, take: 10, skip: 0 }))).toBe('403 Only admins may list ranking statuses');
    const listed = await rankings.list(ADMIN, { lifetime: false, seasonId: winter.id, take: 10, skip: 0 });
    expect([listed.total, listed.statuses.map((s) => s.userUuid)]).toEqual([2, [a, c]]);
    expect((await rankings.list(ADMIN, { lifetime: true, userUuid: b, take: 10, skip: 0 })).statuses).toMatchObject([
      { balance: 10, rank: 3 },
    ]);
    const one = listed.statuses[0]!;
    expect(await rankings.get(ADMIN, one.id, false)).toEqual(one);
    expect(await outcome(rankings.get(ADMIN, one.id, true))).toBe(`404 ${RANKING_STATUS_NOT_FOUND}`);
    expect(await outcome(rankings.get(USER, one.id, false))).toBe('403 Only admins may read ranking statuses');
  });
});
