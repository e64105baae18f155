import { badRequest, conflict, forbidden, isAdminRole, notFound } from '@spinroom/platform';
import type { Actor } from './tokens.js';

export const SEASON_NOT_FOUND = 'Season not found';
export const NO_CURRENT_SEASON = 'There is no current season';
export const NO_NEXT_SEASON = 'There is no next season';
export const NO_PREVIOUS_SEASON = 'There is no previous season';
export const SEASON_NAME_TAKEN = 'Another season has this name';
export const SEASON_START_TAKEN = 'Another season starts at this time';
export const SEASON_HAS_POINTS = 'Points were earned in this season: it cannot be deleted';
export const MAX_SEASON_NAME_LENGTH = 100;

/**
 * A season (spec 000: id, name, a start). It ends where the next season
 * starts (`end`, null for the latest), so seasons never overlap and leave no
 * gap after the first one's start.
 */
export interface Season {
  id: string;
  name: string;
  start: Date;
  end: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SeasonInput {
  name: string;
  start: Date;
}

/** What a write of the store refuses. */
export type SeasonConflict = 'name' | 'start';

/** Seasons in PostgreSQL (db/season-store.ts). */
export interface SeasonStore {
  create(input: SeasonInput, now: Date): Promise<Season | SeasonConflict>;
  patch(id: string, changes: Partial<SeasonInput>, now: Date): Promise<Season | SeasonConflict | undefined>;
  /** 'points' when ranking statuses name the season. */
  delete(id: string): Promise<boolean | 'points'>;
  find(id: string): Promise<Season | undefined>;
  findByName(name: string): Promise<Season | undefined>;
  /** The season whose span holds `at`: the latest starting at or before it. */
  at(at: Date): Promise<Season | undefined>;
  /** The first season starting after `from` (next) or the last starting before it. */
  adjacent(from: Date, next: boolean): Promise<Season | undefined>;
  list(page: { offset: number; limit: number }): Promise<{ seasons: Season[]; total: number }>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function checkUuid(value: string, what: string): void {
  if (!UUID.test(value)) throw badRequest(`${what} must be a UUID`);
}

/** The rules of a season's fields: a name of 1 to 100 characters, a valid start. */
export function checkSeason(input: Partial<SeasonInput>): void {
  if (input.name !== undefined && (input.name.trim().length === 0 || input.name.length > MAX_SEASON_NAME_LENGTH)) {
    throw badRequest(`name must be 1 to ${MAX_SEASON_NAME_LENGTH} characters`);
  }
  if (input.start !== undefined && Number.isNaN(input.start.getTime())) throw badRequest('start must be a date');
}

/** Which season holds a time, from seasons in any order: the latest starting at or before it. */
export function seasonAt<S extends { start: Date }>(seasons: S[], at: Date): S | undefined {
  let found: S | undefined;
  for (const season of seasons) {
    if (season.start.getTime() <= at.getTime() && (!found || season.start.getTime() > found.start.getTime())) found = season;
  }
  return found;
}

const refused = (why: SeasonConflict) => conflict(why === 'name' ? SEASON_NAME_TAKEN : SEASON_START_TAKEN);

/** Seasons: admins create, change and delete them; anyone reads the current, next and previous one. */
export class Seasons {
  private readonly now: () => Date;

  constructor(
    private readonly store: SeasonStore,
    now?: () => Date,
  ) {
    this.now = now ?? (() => new Date());
  }

  async create(actor: Actor, input: SeasonInput): Promise<Season> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may create seasons');
    checkSeason(input);
    const season = await this.store.create({ name: input.name.trim(), start: input.start }, this.now());
    if (typeof season === 'string') throw refused(season);
    return season;
  }

  async patch(actor: Actor, id: string, changes: Partial<SeasonInput>): Promise<Season> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may change seasons');
    checkUuid(id, 'id');
    checkSeason(changes);
    const season = await this.store.patch(id, { ...changes, name: changes.name?.trim() }, this.now());
    if (typeof season === 'string') throw refused(season);
    if (!season) throw notFound(SEASON_NOT_FOUND);
    return season;
  }

  async delete(actor: Actor, id: string): Promise<void> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may delete seasons');
    checkUuid(id, 'id');
    const deleted = await this.store.delete(id);
    if (deleted === 'points') throw conflict(SEASON_HAS_POINTS);
    if (!deleted) throw notFound(SEASON_NOT_FOUND);
  }

  async get(actor: Actor, id: string): Promise<Season> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may read seasons by id');
    return this.byId(id);
  }

  /** A season by id, for anyone (the rankings name seasons by id). */
  async byId(id: string): Promise<Season> {
    checkUuid(id, 'id');
    const season = await this.store.find(id);
    if (!season) throw notFound(SEASON_NOT_FOUND);
    return season;
  }

  async byName(name: string): Promise<Season> {
    const season = await this.store.findByName(name);
    if (!season) throw notFound(SEASON_NOT_FOUND);
    return season;
  }

  async list(actor: Actor, page: { offset: number; limit: number }): Promise<{ seasons: Season[]; total: number }> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may list seasons');
    return this.store.list(page);
  }

  async current(): Promise<Season> {
    const season = await this.store.at(this.now());
    if (!season) throw notFound(NO_CURRENT_SEASON);
    return season;
  }

  /** The season holding `at`, if any (points earned then go to it). */
  at(at: Date): Promise<Season | undefined> {
    return this.store.at(at);
  }

  async adjacent(from: Date, next: boolean): Promise<Season> {
    if (Number.isNaN(from.getTime())) throw badRequest('seasonStart must be a date');
    const season = await this.store.adjacent(from, next);
    if (!season) throw notFound(next ? NO_NEXT_SEASON : NO_PREVIOUS_SEASON);
    return season;
  }
}
