import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, badRequest, forbidden, isAdminRole, notFound } from '@spinroom/platform';
import { isCheckViolation, type AddedPoints, type PointEntry, type PointRecord } from '../db/point-store.js';
import { checkUuid, type Season, type Seasons } from './seasons.js';
import type { Actor } from './tokens.js';

export const RANKING_STATUS_NOT_FOUND = 'Ranking status not found';
export const POINTS_BELOW_ZERO = "This would take the user's points below zero";
export const MAX_POINTS = 1_000_000;
export const MAX_REASON_LENGTH = 500;

/** A ranking status with its place: `rank` 1 for the highest balance, 0 without points. */
export interface RankedStatus {
  id: string;
  userUuid: string;
  /** Null for the lifetime status. */
  seasonId: string | null;
  seasonName: string | null;
  balance: number;
  rank: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface RankingPage {
  rankings: RankedStatus[];
  total: number;
}

export interface StatusQuery {
  lifetime: boolean;
  seasonId?: string;
  userUuid?: string;
  take: number;
  skip: number;
}

/** Ranking statuses in PostgreSQL (db/ranking-store.ts). */
export interface RankingStore {
  /** Adds a row of points in one transaction; `after` runs in it when the row is new (season awards). */
  add(entry: PointEntry, now: Date, after?: (em: EntityManager, added: AddedPoints) => Promise<void>): Promise<AddedPoints>;
  userStatuses(userUuid: string): Promise<RankedStatus[]>;
  seasonStatus(userUuid: string, seasonId: string): Promise<RankedStatus | undefined>;
  lifetimeStatus(userUuid: string): Promise<RankedStatus | undefined>;
  seasonRanking(seasonId: string, page: { take: number; skip: number }): Promise<RankingPage>;
  lifetimeRanking(page: { take: number; skip: number }): Promise<RankingPage>;
  list(query: StatusQuery): Promise<{ statuses: RankedStatus[]; total: number }>;
  find(id: string, lifetime: boolean): Promise<RankedStatus | undefined>;
}

export interface PointsGiven {
  point: PointRecord;
  rankingStatus: RankedStatus | null;
  lifetime: RankedStatus;
  replayed: boolean;
}

/** The lifetime status of a user without points. */
const none = (userUuid: string): RankedStatus => ({
  id: '',
  userUuid,
  seasonId: null,
  seasonName: null,
  balance: 0,
  rank: 0,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

function checkReason(reason: string): string {
  const trimmed = reason.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_REASON_LENGTH) throw badRequest(`reason must be 1 to ${MAX_REASON_LENGTH} characters`);
  return trimmed;
}

function checkKey(key: string): void {
  if (key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) throw badRequest('idempotencyKey must be 1 to 255 visible ASCII characters');
}

/** Rankings: anyone reads them; admins list statuses and adjust points; services add points. */
export class Rankings {
  private readonly now: () => Date;

  constructor(
    private readonly store: RankingStore,
    private readonly seasons: Seasons,
    now?: () => Date,
    /** Runs in the transaction of each new row of points (season awards). */
    private readonly afterPoints?: (em: EntityManager, added: AddedPoints) => Promise<void>,
  ) {
    this.now = now ?? (() => new Date());
  }

  userStatuses(userUuid: string): Promise<RankedStatus[]> {
    checkUuid(userUuid, 'userUuid');
    return this.store.userStatuses(userUuid);
  }

  async lifetime(userUuid: string): Promise<RankedStatus> {
    checkUuid(userUuid, 'userUuid');
    return (await this.store.lifetimeStatus(userUuid)) ?? none(userUuid);
  }

  /** A user's status in the current season (spec 002's hasCurrentRankingStatus). */
  async current(userUuid: string): Promise<{ season: Season | null; rankingStatus: RankedStatus | null }> {
    checkUuid(userUuid, 'userUuid');
    const season = await this.seasons.at(this.now());
    if (!season) return { season: null, rankingStatus: null };
    return { season, rankingStatus: (await this.store.seasonStatus(userUuid, season.id)) ?? null };
  }

  /** A season's ranking (by id, by name, or the current one) and, for a caller, their own place in it. */
  async seasonRanking(
    which: { seasonId?: string; seasonName?: string },
    page: { take: number; skip: number },
    caller?: string,
  ): Promise<RankingPage & { season: Season; me: RankedStatus | null }> {
    const season = which.seasonId
      ? await this.seasons.byId(which.seasonId)
      : which.seasonName
        ? await this.seasons.byName(which.seasonName)
        : await this.seasons.current();
    const ranking = await this.store.seasonRanking(season.id, page);
    const me = caller ? ((await this.store.seasonStatus(caller, season.id)) ?? null) : null;
    return { ...ranking, season, me };
  }

  async lifetimeRanking(page: { take: number; skip: number }, caller?: string): Promise<RankingPage & { me: RankedStatus | null }> {
    const ranking = await this.store.lifetimeRanking(page);
    const me = caller ? ((await this.store.lifetimeStatus(caller)) ?? null) : null;
    return { ...ranking, me };
  }

  async list(actor: Actor, query: StatusQuery): Promise<{ statuses: RankedStatus[]; total: number }> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may list ranking statuses');
    if (query.seasonId) checkUuid(query.seasonId, 'seasonId');
    if (query.userUuid) checkUuid(query.userUuid, 'userUuid');
    return this.store.list(query);
  }

  async get(actor: Actor, id: string, lifetime: boolean): Promise<RankedStatus> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may read ranking statuses');
    checkUuid(id, 'id');
    const status = await this.store.find(id, lifetime);
    if (!status) throw notFound(RANKING_STATUS_NOT_FOUND);
    return status;
  }

  /** An admin adds (or takes) points with a reason: to the named season, else the current one, and to the lifetime status. */
  async handlePoints(
    actor: Actor,
    input: { userUuid: string; points: number; reason: string; seasonId?: string; idempotencyKey?: string },
  ): Promise<PointsGiven> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may handle points');
    checkUuid(input.userUuid, 'userUuid');
    if (!Number.isSafeInteger(input.points) || input.points === 0 || Math.abs(input.points) > MAX_POINTS) {
      throw badRequest(`points must be a whole number from -${MAX_POINTS} to ${MAX_POINTS}, not 0`);
    }
    const reason = checkReason(input.reason);
    if (input.idempotencyKey) checkKey(input.idempotencyKey);
    const season = input.seasonId ? await this.seasons.byId(input.seasonId) : await this.seasons.at(this.now());
    return this.give({
      userUuid: input.userUuid,
      kind: 'admin',
      reference: input.idempotencyKey ? `${actor.userUuid}:${input.idempotencyKey}` : `${actor.userUuid}:${randomUUID()}`,
      amount: input.points,
      reason,
      actor: actor.userUuid,
      earnedAt: this.now(),
      seasonId: season?.id ?? null,
    });
  }

  /** A service adds points (a reward) to the current season and the lifetime status, once per key. */
  async servicePoints(
    actor: Actor,
    input: { userUuid: string; points: number; reason: string; idempotencyKey: string },
  ): Promise<PointsGiven> {
    if (actor.kind !== 'service') throw forbidden('Only services may add points here');
    checkUuid(input.userUuid, 'userUuid');
    if (!Number.isSafeInteger(input.points) || input.points < 1 || input.points > MAX_POINTS) {
      throw badRequest(`points must be a whole number from 1 to ${MAX_POINTS}`);
    }
    const reason = checkReason(input.reason);
    checkKey(input.idempotencyKey);
    return this.give({
      userUuid: input.userUuid,
      kind: 'service',
      reference: `${actor.userUuid}:${input.idempotencyKey}`,
      amount: input.points,
      reason,
      actor: actor.userUuid,
      earnedAt: this.now(),
    });
  }

  private async give(entry: PointEntry): Promise<PointsGiven> {
    let added: AddedPoints;
    try {
      added = await this.store.add(entry, this.now(), this.afterPoints);
    } catch (error) {
      if (isCheckViolation(error)) throw new AppError(409, POINTS_BELOW_ZERO);
      throw error;
    }
    const { point } = added;
    const rankingStatus = point.seasonId ? ((await this.store.seasonStatus(point.userUuid, point.seasonId)) ?? null) : null;
    const lifetime = (await this.store.lifetimeStatus(point.userUuid)) ?? none(point.userUuid);
    return { point, rankingStatus, lifetime, replayed: !added.added };
  }
}
