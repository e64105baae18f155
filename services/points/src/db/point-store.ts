import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PointKind, SignUp } from '../domain/points.js';

/** One row of points: earned from a play, or given by an admin or a service. */
export interface PointRecord {
  id: string;
  userUuid: string;
  seasonId: string | null;
  kind: PointKind;
  reference: string;
  amount: number;
  reason: string;
  actor: string;
  earnedAt: Date;
  createdAt: Date;
}

/** A ranking status (spec 000: userUuid, seasonId, balance); `seasonId` null for the lifetime one. */
export interface RankingStatus {
  id: string;
  userUuid: string;
  seasonId: string | null;
  balance: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface PointEntry {
  userUuid: string;
  kind: PointKind;
  /** With `kind`, what makes the row unique: the play's id, or the caller's key. */
  reference: string;
  amount: number;
  reason: string;
  actor: string;
  earnedAt: Date;
  /** The season the points go to; left out: the season whose span holds `earnedAt` (none before the first season). */
  seasonId?: string | null;
}

export interface AddedPoints {
  point: PointRecord;
  /** The user's status in the point's season after it (null when it went to no season). */
  rankingStatus: RankingStatus | null;
  lifetime: RankingStatus;
  /** False when the row was there already (the same play, the same key): nothing changed. */
  added: boolean;
}

interface PointRow {
  id: string;
  user_uuid: string;
  season_id: string | null;
  kind: PointKind;
  reference: string;
  amount: string;
  reason: string;
  actor: string;
  earned_at: Date;
  created_at: Date;
}

interface StatusRow {
  id: string;
  user_uuid: string;
  season_id?: string | null;
  balance: string;
  created_at: Date;
  updated_at: Date;
}

const toPoint = (row: PointRow): PointRecord => ({
  id: row.id,
  userUuid: row.user_uuid,
  seasonId: row.season_id,
  kind: row.kind,
  reference: row.reference,
  amount: Number(row.amount),
  reason: row.reason,
  actor: row.actor,
  earnedAt: new Date(row.earned_at),
  createdAt: new Date(row.created_at),
});

export const toStatus = (row: StatusRow): RankingStatus => ({
  id: row.id,
  userUuid: row.user_uuid,
  seasonId: row.season_id ?? null,
  balance: Number(row.balance),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

/** PostgreSQL's check_violation: a balance would go below zero. */
const CHECK_VIOLATION = '23514';

export function isCheckViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  return ('code' in error && error.code === CHECK_VIOLATION) || error.constructor.name === 'CheckConstraintViolationException';
}

/** Remembers a user's sign-up (kind and time); the first one known stays. */
export async function recordSignUp(em: EntityManager, userUuid: string, signUp: SignUp): Promise<void> {
  await em.execute(`insert into "user_signup" ("user_uuid", "kind", "signed_up_at") values (?, ?, ?) on conflict do nothing`, [
    userUuid,
    signUp.kind,
    signUp.signedUpAt,
  ]);
}

export async function signUpsOf(em: EntityManager, userUuids: string[]): Promise<Map<string, SignUp>> {
  if (userUuids.length === 0) return new Map();
  const rows = await em.execute<Array<{ user_uuid: string; kind: string; signed_up_at: Date }>>(
    `select "user_uuid", "kind", "signed_up_at" from "user_signup" where "user_uuid" in (${userUuids.map(() => '?').join(', ')})`,
    userUuids,
  );
  return new Map(rows.map((row) => [row.user_uuid, { kind: row.kind, signedUpAt: new Date(row.signed_up_at) }]));
}

/** The season whose span holds a time: the latest starting at or before it. */
export async function seasonIdAt(em: EntityManager, at: Date): Promise<string | null> {
  const [row] = await em.execute<Array<{ id: string }>>(`select "id" from "season" where "start" <= ? order by "start" desc limit 1`, [at]);
  return row?.id ?? null;
}

async function statuses(em: EntityManager, userUuid: string, seasonId: string | null) {
  const [lifetime] = await em.execute<StatusRow[]>(`select * from "ranking_status_lifetime" where "user_uuid" = ?`, [userUuid]);
  const [season] = seasonId
    ? await em.execute<StatusRow[]>(`select * from "ranking_status" where "user_uuid" = ? and "season_id" = ?`, [userUuid, seasonId])
    : [];
  return { lifetime: lifetime ? toStatus(lifetime) : undefined, rankingStatus: season ? toStatus(season) : null };
}

/**
 * Adds a row of points and, only when the row is new, its amount to the
 * user's ranking status in its season and over all time, in the caller's
 * transaction. A row is unique by (reference, kind): the same play or key
 * counted twice adds nothing the second time. A balance that would go below
 * zero fails the database's check (isCheckViolation).
 */
export async function addPoints(em: EntityManager, entry: PointEntry, now: Date): Promise<AddedPoints> {
  const seasonId = entry.seasonId === undefined ? await seasonIdAt(em, entry.earnedAt) : entry.seasonId;
  const [inserted] = await em.execute<PointRow[]>(
    `insert into "point" ("id", "user_uuid", "season_id", "kind", "reference", "amount", "reason", "actor", "earned_at", "created_at")
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("reference", "kind") do nothing returning *`,
    [randomUUID(), entry.userUuid, seasonId, entry.kind, entry.reference, entry.amount, entry.reason, entry.actor, entry.earnedAt, now],
  );
  if (!inserted) {
    const [row] = await em.execute<PointRow[]>(`select * from "point" where "reference" = ? and "kind" = ?`, [entry.reference, entry.kind]);
    const point = toPoint(row!);
    const found = await statuses(em, point.userUuid, point.seasonId);
    return { point, rankingStatus: found.rankingStatus, lifetime: found.lifetime!, added: false };
  }
  const point = toPoint(inserted);
  // A row at 0 first, then the change: the balance's check sees the sum, never the bare amount.
  await em.execute(
    `insert into "ranking_status_lifetime" ("id", "user_uuid", "balance", "created_at", "updated_at") values (?, ?, 0, ?, ?)
     on conflict ("user_uuid") do nothing`,
    [randomUUID(), point.userUuid, now, now],
  );
  const [lifetime] = await em.execute<StatusRow[]>(
    `update "ranking_status_lifetime" set "balance" = "balance" + ?, "updated_at" = ? where "user_uuid" = ? returning *`,
    [point.amount, now, point.userUuid],
  );
  let rankingStatus: RankingStatus | null = null;
  if (seasonId) {
    await em.execute(
      `insert into "ranking_status" ("id", "user_uuid", "season_id", "balance", "created_at", "updated_at") values (?, ?, ?, 0, ?, ?)
       on conflict ("user_uuid", "season_id") do nothing`,
      [randomUUID(), point.userUuid, seasonId, now, now],
    );
    const [season] = await em.execute<StatusRow[]>(
      `update "ranking_status" set "balance" = "balance" + ?, "updated_at" = ? where "user_uuid" = ? and "season_id" = ? returning *`,
      [point.amount, now, point.userUuid, seasonId],
    );
    rankingStatus = toStatus(season!);
  }
  return { point, rankingStatus, lifetime: toStatus(lifetime!), added: true };
}
