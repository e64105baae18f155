import { randomUUID } from 'node:crypto';
import { dropDatabase, openServiceDatabase, type MikroORM } from '@spinroom/platform';
import { outcome, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointsDatabase } from '../src/db/database.js';
import { PgSeasonStore } from '../src/db/season-store.js';
import {
  checkSeason,
  NO_CURRENT_SEASON,
  NO_NEXT_SEASON,
  NO_PREVIOUS_SEASON,
  SEASON_NAME_TAKEN,
  SEASON_NOT_FOUND,
  SEASON_START_TAKEN,
  seasonAt,
  Seasons,
} from '../src/domain/seasons.js';
import type { Actor } from '../src/domain/tokens.js';

const ADMIN: Actor = { userUuid: randomUUID(), role: 'admin', kind: 'user' };
const USER: Actor = { userUuid: randomUUID(), role: 'user', kind: 'user' };

const day = (d: string) => new Date(`${d}T00:00:00Z`);

describe('season rules', () => {
  it('puts a time in the latest season starting at or before it, and none before the first', () => {
    const seasons = [{ start: day('2026-03-01') }, { start: day('2026-01-01') }, { start: day('2026-02-01') }];
    expect(seasonAt(seasons, day('2025-12-31'))).toBeUndefined();
    expect(seasonAt(seasons, day('2026-01-01'))).toBe(seasons[1]);
    expect(seasonAt(seasons, new Date('2026-02-28T23:59:59Z'))).toBe(seasons[2]);
    expect(seasonAt(seasons, day('2030-01-01'))).toBe(seasons[0]);
  });

  it('refuses empty or long names and invalid starts', () => {
    expect(() => checkSeason({ name: ' ' })).toThrow('name must be 1 to 100 characters');
    expect(() => checkSeason({ name: 'x'.repeat(101) })).toThrow('name must be 1 to 100 characters');
    expect(() => checkSeason({ start: new Date('nope') })).toThrow('start must be a date');
    expect(() => checkSeason({ name: 'Winter', start: day('2026-01-01') })).not.toThrow();
  });
});

describe('seasons on PostgreSQL', () => {
  const databaseUrl = uniqueDatabaseUrl('points_seasons');
  let orm: MikroORM;
  let now = day('2026-02-15');
  let seasons: Seasons;

  beforeAll(async () => {
    orm = await openServiceDatabase('points', databaseUrl, pointsDatabase);
    seasons = new Seasons(new PgSeasonStore(orm), () => now);
  });
  afterAll(async () => {
    await orm.close();
    await dropDatabase(databaseUrl);
  });

  it('lets admins create, change and delete seasons; each ends where the next starts', async () => {
    expect(await outcome(seasons.current())).toBe(`404 ${NO_CURRENT_SEASON}`);
    expect(await outcome(seasons.create(USER, { name: 'Winter', start: day('2026-01-01') }))).toBe('403 Only admins may create seasons');
    const winter = await seasons.create(ADMIN, { name: ' Winter ', start: day('2026-01-01') });
    expect(winter).toMatchObject({ name: 'Winter', start: day('2026-01-01'), end: null });
    const spring = await seasons.create(ADMIN, { name: 'Spring', start: day('2026-03-01') });
    expect(await outcome(seasons.create(ADMIN, { name: 'Winter', start: day('2026-05-01') }))).toBe(`409 ${SEASON_NAME_TAKEN}`);
    expect(await outcome(seasons.create(ADMIN, { name: 'Other', start: day('2026-03-01') }))).toBe(`409 ${SEASON_START_TAKEN}`);

    expect(await seasons.current()).toMatchObject({ id: winter.id, end: day('2026-03-01') });
    now = day('2026-04-01');
    expect(await seasons.current()).toMatchObject({ id: spring.id, end: null });
    expect((await seasons.adjacent(day('2026-01-01'), true)).id).toBe(spring.id);
    expect((await seasons.adjacent(day('2026-03-01'), false)).id).toBe(winter.id);
    expect(await outcome(seasons.adjacent(day('2026-03-01'), true))).toBe(`404 ${NO_NEXT_SEASON}`);
    expect(await outcome(seasons.adjacent(day('2026-01-01'), false))).toBe(`404 ${NO_PREVIOUS_SEASON}`);

    expect(await outcome(seasons.list(USER, { offset: 0, limit: 10 }))).toBe('403 Only admins may list seasons');
    const listed = await seasons.list(ADMIN, { offset: 0, limit: 10 });
    expect([listed.total, listed.seasons.map((s) => s.name)]).toEqual([2, ['Spring', 'Winter']]);
    expect((await seasons.list(ADMIN, { offset: 1, limit: 10 })).seasons.map((s) => s.name)).toEqual(['Winter']);
    expect(await outcome(seasons.get(USER, winter.id))).toBe('403 Only admins may read seasons by id');
    expect((await seasons.byName('Spring')).id).toBe(spring.id);

    // Moving spring's start moves winter's end with it.
    expect(await outcome(seasons.patch(USER, spring.id, { name: 'x' }))).toBe('403 Only admins may change seasons');
    expect(await outcome(seasons.patch(ADMIN, spring.id, { name: 'Winter' }))).toBe(`409 ${SEASON_NAME_TAKEN}`);
    expect(await seasons.patch(ADMIN, spring.id, { start: day('2026-03-21') })).toMatchObject({ name: 'Spring', start: day('2026-03-21') });
    expect((await seasons.get(ADMIN, winter.id)).end).toEqual(day('2026-03-21'));
    expect(await outcome(seasons.patch(ADMIN, randomUUID(), { name: 'x' }))).toBe(`404 ${SEASON_NOT_FOUND}`);
    expect(await outcome(seasons.get(ADMIN, 'nope'))).toBe('400 id must be a UUID');

    expect(await outcome(seasons.delete(USER, spring.id))).toBe('403 Only admins may delete seasons');
    await seasons.delete(ADMIN, spring.id);
    expect(await outcome(seasons.delete(ADMIN, spring.id))).toBe(`404 ${SEASON_NOT_FOUND}`);
    expect(await seasons.current()).toMatchObject({ id: winter.id, end: null });
  });
});
