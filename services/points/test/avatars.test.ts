import { randomUUID } from 'node:crypto';
import { dropDatabase, openServiceDatabase, type MikroORM } from '@spinroom/platform';
import { outcome, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awardSeasonAvatars, PgAvatarStore } from '../src/db/avatar-store.js';
import { pointsDatabase } from '../src/db/database.js';
import { PgRankingStore } from '../src/db/ranking-store.js';
import { PgSeasonStore } from '../src/db/season-store.js';
import {
  ASSIGNMENT_NOT_FOUND,
  AVATAR_NOT_FOUND,
  AVATAR_SLUG_TAKEN,
  Avatars,
  checkAvatar,
  mayWear,
  type Avatar,
} from '../src/domain/avatars.js';
import { Rankings } from '../src/domain/rankings.js';
import { Seasons } from '../src/domain/seasons.js';
import type { Actor } from '../src/domain/tokens.js';

const ADMIN: Actor = { userUuid: randomUUID(), role: 'admin', kind: 'user' };
const USER: Actor = { userUuid: randomUUID(), role: 'user', kind: 'user' };
const SERVICE: Actor = { userUuid: 'service:payment', role: 'service', kind: 'service' };

const avatar = (extra: Partial<Avatar>): Avatar => ({
  slug: 'a',
  name: 'A',
  status: 'PUBLIC',
  discordOnly: false,
  seasonId: null,
  rankThreshold: null,
  createdAt: new Date(),
  updatedAt: new Date(),
  ...extra,
});

describe('avatar rules', () => {
  it('lets anyone wear a public avatar, subscribers a subscriber one, and the others only through an assignment', () => {
    expect(mayWear(avatar({}), false)).toBe(true);
    expect(mayWear(avatar({ discordOnly: true }), false)).toBe(false);
    for (const status of ['PRIVATE', 'SEASON_AWARD', 'SUBSCRIBER_ONLY'] as const) {
      expect(mayWear(avatar({ status }), false)).toBe(false);
      expect(mayWear(avatar({ status }), true)).toBe(true);
    }
    expect(mayWear(avatar({ status: 'SUBSCRIBER_ONLY' }), false, true)).toBe(true);
    expect(mayWear(avatar({ status: 'SUBSCRIBER_ONLY', discordOnly: true }), false, true)).toBe(false);
    for (const status of ['PRIVATE', 'SEASON_AWARD'] as const) expect(mayWear(avatar({ status }), false, true)).toBe(false);
  });

  it('needs a season and a rank threshold for a season award, and drops them from the others', () => {
    const input = { slug: 'cup', name: 'Cup', status: 'SEASON_AWARD' as const, discordOnly: false, seasonId: null, rankThreshold: null };
    expect(() => checkAvatar(input)).toThrow('A SEASON_AWARD avatar needs seasonId and rankThreshold');
    expect(() => checkAvatar({ ...input, seasonId: randomUUID(), rankThreshold: 0 })).toThrow('rankThreshold must be a whole number');
    expect(checkAvatar({ ...input, status: 'PUBLIC', seasonId: randomUUID(), rankThreshold: 3 })).toMatchObject({
      seasonId: null,
      rankThreshold: null,
    });
    expect(() => checkAvatar({ ...input, slug: 'Bad Slug' })).toThrow('slug must be');
    expect(() => checkAvatar({ ...input, slug: 'subscriber' })).toThrow('slug subscriber is reserved');
  });
});

describe('avatars on PostgreSQL', () => {
  const databaseUrl = uniqueDatabaseUrl('points_avatars');
  let orm: MikroORM;
  let seasons: Seasons;
  let avatars: Avatars;
  let rankings: Rankings;
  let now = new Date('2026-05-01T00:00:00Z');
  /** Subscription levels by user (the payment service's answer). */
  const levels = new Map<string, string>();

  beforeAll(async () => {
    orm = await openServiceDatabase('points', databaseUrl, pointsDatabase);
    seasons = new Seasons(new PgSeasonStore(orm), () => now);
    avatars = new Avatars(new PgAvatarStore(orm), seasons, { level: async (userUuid) => levels.get(userUuid) ?? '' }, () => now);
    rankings = new Rankings(
      new PgRankingStore(orm),
      seasons,
      () => now,
      (em, added) => awardSeasonAvatars(em, added, now),
    );
  });
  afterAll(async () => {
    await orm.close();
    await dropDatabase(databaseUrl);
  });

  const make = (slug: string, status: Avatar['status'], extra: Partial<Avatar> = {}) =>
    avatars.create(ADMIN, { slug, name: slug.toUpperCase(), status, discordOnly: false, seasonId: null, rankThreshold: null, ...extra });

  it('lets admins write avatars, shows each caller what they may wear, and assigns them by role', async () => {
    expect(
      await outcome(
        avatars.create(USER, { slug: 'x', name: 'X', status: 'PUBLIC', discordOnly: false, seasonId: null, rankThreshold: null }),
      ),
    ).toBe('403 Only admins may create avatars');
    await make('disco', 'PUBLIC');
    await make('discord-owl', 'PUBLIC', { discordOnly: true });
    await make('vault', 'PRIVATE');
    await make('gold', 'SUBSCRIBER_ONLY');
    expect(await outcome(make('disco', 'PRIVATE'))).toBe(`409 ${AVATAR_SLUG_TAKEN}`);
    expect(await outcome(make('cup', 'SEASON_AWARD', { seasonId: randomUUID(), rankThreshold: 1 }))).toBe('404 Season not found');

    expect((await avatars.mine(undefined)).map((a) => a.slug)).toEqual(['disco']);
    expect((await avatars.all(undefined)).map((a) => a.slug)).toEqual(['disco', 'discord-owl', 'gold']);
    expect((await avatars.all(ADMIN)).map((a) => a.slug)).toEqual(['disco', 'discord-owl', 'gold', 'vault']);
    expect((await avatars.subscriber()).map((a) => a.slug)).toEqual(['gold']);
    expect(await outcome(avatars.get(USER, 'vault'))).toBe(`404 ${AVATAR_NOT_FOUND}`);
    expect((await avatars.get(ADMIN, 'vault')).status).toBe('PRIVATE');

    expect(await outcome(avatars.assign(USER, 'vault', USER.userUuid))).toBe('403 Only admins and services may assign avatars');
    expect(await outcome(avatars.assign(ADMIN, 'gold', USER.userUuid, 'PURCHASED'))).toBe(
      '403 Only services may assign a PURCHASED avatar',
    );
    expect(await outcome(avatars.assign(SERVICE, 'gold', USER.userUuid, 'SEASON_AWARD'))).toBe(
      '403 Only admins may assign a SEASON_AWARD avatar',
    );
    const vault = await avatars.assign(ADMIN, 'vault', USER.userUuid);
    expect(vault).toMatchObject({ created: true, assignment: { avatarSlug: 'vault', userUuid: USER.userUuid, assignmentType: 'MANUAL' } });
    expect((await avatars.assign(ADMIN, 'vault', USER.userUuid)).created).toBe(false);
    await avatars.assign(SERVICE, 'gold', USER.userUuid, 'PURCHASED');
    expect((await avatars.mine(USER)).map((a) => a.slug)).toEqual(['disco', 'gold', 'vault']);
    expect((await avatars.get(USER, 'vault')).slug).toBe('vault');
    expect(await avatars.forUser('gold', USER.userUuid)).toMatchObject({ canWear: true, assignment: { assignmentType: 'PURCHASED' } });
    expect(await avatars.forUser('gold', randomUUID())).toMatchObject({ canWear: false, assignment: null });
    // A subscriber wears the subscribers' avatars without an assignment, while the subscription is active.
    const subscriber = { ...USER, userUuid: randomUUID() };
    levels.set(subscriber.userUuid, 'supporter');
    expect(await avatars.forUser('gold', subscriber.userUuid)).toMatchObject({ canWear: true, assignment: null });
    expect((await avatars.mine(subscriber)).map((a) => a.slug)).toEqual(['disco', 'gold']);
    levels.delete(subscriber.userUuid);
    expect(await avatars.forUser('gold', subscriber.userUuid)).toMatchObject({ canWear: false });
    expect((await avatars.mine(subscriber)).map((a) => a.slug)).toEqual(['disco']);
    expect(await outcome(avatars.forService(USER, 'vault'))).toBe('403 Only services may look avatars up here');
    expect((await avatars.forService(SERVICE, 'vault')).slug).toBe('vault');

    expect(await outcome(avatars.unassign(USER, vault.assignment.id))).toBe('403 Only admins may take avatars back');
    await avatars.unassign(ADMIN, vault.assignment.id);
    expect(await outcome(avatars.unassign(ADMIN, vault.assignment.id))).toBe(`404 ${ASSIGNMENT_NOT_FOUND}`);
    expect((await avatars.mine(USER)).map((a) => a.slug)).toEqual(['disco', 'gold']);

    expect(await avatars.patch(ADMIN, 'disco', { name: 'Disco ball', discordOnly: true })).toMatchObject({
      name: 'Disco ball',
      status: 'PUBLIC',
      discordOnly: true,
    });
    expect(await outcome(avatars.patch(ADMIN, 'nope', { name: 'x' }))).toBe(`404 ${AVATAR_NOT_FOUND}`);
    await avatars.delete(ADMIN, 'gold');
    expect(await outcome(avatars.forUser('gold', USER.userUuid))).toBe(`404 ${AVATAR_NOT_FOUND}`);
    expect(await outcome(avatars.delete(USER, 'disco'))).toBe('403 Only admins may delete avatars');
  });

  it('answers the admin list in the @nestjsx/crud syntax', async () => {
    expect(await outcome(avatars.adminQuery(USER, ''))).toBe('403 Only admins may list avatars here');
    const page = await avatars.adminQuery(ADMIN, 'filter=status||$in||PUBLIC,PRIVATE&sort=slug,DESC&limit=2&fields=name');
    expect([page.total, page.count, page.pageCount, page.data.map((a) => a.slug), page.fields]).toEqual([
      3,
      2,
      2,
      ['vault', 'discord-owl'],
      ['name'],
    ]);
    expect((await avatars.adminQuery(ADMIN, 's={"name":{"$contL":"disco"}}')).data.map((a) => a.slug)).toEqual(['disco', 'discord-owl']);
    expect(await outcome(avatars.adminQuery(ADMIN, 'filter=password||$eq||x'))).toBe('400 Unknown field: password');
    expect((await avatars.adminGet(ADMIN, 'vault', 'fields=status')).fields).toEqual(['status']);
  });

  it('assigns a season award when points put a user within its rank, and backfills it once', async () => {
    const season = await seasons.create(ADMIN, { name: 'Spring', start: new Date('2026-04-01T00:00:00Z') });
    await make('spring-top2', 'SEASON_AWARD', { seasonId: season.id, rankThreshold: 2 });
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const give = async (userUuid: string, points: number) => {
      now = new Date(now.getTime() + 60_000);
      return rankings.handlePoints(ADMIN, { userUuid, points, reason: 'test' });
    };
    await give(a, 5);
    await give(b, 3);
    await give(c, 1); // third: no award
    const has = async (userUuid: string) => (await avatars.forUser('spring-top2', userUuid)).assignment?.assignmentType ?? null;
    expect([await has(a), await has(b), await has(c)]).toEqual(['SEASON_AWARD', 'SEASON_AWARD', null]);
    await give(c, 10); // now first: awarded; b (third now) keeps theirs
    expect([await has(b), await has(c)]).toEqual(['SEASON_AWARD', 'SEASON_AWARD']);

    // An award made after the points: the backfill assigns it, a limit at a time, once.
    await make('spring-top3', 'SEASON_AWARD', { seasonId: season.id, rankThreshold: 3 });
    expect(await outcome(avatars.backfill(USER, season.id, 10))).toBe('403 Only admins may backfill achieved avatars');
    expect(await outcome(avatars.backfill(ADMIN, randomUUID(), 10))).toBe('404 Season not found');
    expect(await avatars.backfill(ADMIN, season.id, 2)).toEqual({ assigned: 2, done: false });
    expect(await avatars.backfill(ADMIN, season.id, 2)).toEqual({ assigned: 1, done: true });
    expect(await avatars.backfill(ADMIN, season.id, 2)).toEqual({ assigned: 0, done: true });
    for (const user of [a, b, c]) expect((await avatars.forUser('spring-top3', user)).canWear).toBe(true);
  });
});
