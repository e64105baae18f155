import type { AddServicePointsResponse, HandlePointsResponse, RankingStatus, Season } from '@spinroom/contracts/points/v1/seasons';
import type { z } from 'zod';
import { present } from '../../http/upstream.js';
import type { PointsGivenSchema, RankingStatusSchema, SeasonSchema } from './season-schemas.js';

export const iso = (date: Date | undefined) => present(date).toISOString();

export function seasonJson(season: Season | undefined): z.input<typeof SeasonSchema> {
  const s = present(season);
  return {
    id: s.id,
    name: s.name,
    start: iso(s.start),
    end: s.end ? s.end.toISOString() : null,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
  };
}

export function rankingStatusJson(status: RankingStatus | undefined): z.input<typeof RankingStatusSchema> {
  const s = present(status);
  return {
    id: s.id,
    userUuid: s.userUuid,
    seasonId: s.seasonId ?? null,
    seasonName: s.seasonName ?? null,
    balance: s.balance,
    rank: s.rank,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
  };
}

export const optionalStatusJson = (status: RankingStatus | undefined) => (status ? rankingStatusJson(status) : null);

export function pointsGivenJson(given: HandlePointsResponse | AddServicePointsResponse): z.input<typeof PointsGivenSchema> {
  const p = present(given.point);
  return {
    point: {
      id: p.id,
      userUuid: p.userUuid,
      seasonId: p.seasonId ?? null,
      kind: p.kind as 'upvotes' | 'play' | 'admin' | 'service',
      amount: p.amount,
      reason: p.reason,
      createdAt: iso(p.createdAt),
    },
    rankingStatus: optionalStatusJson(given.rankingStatus),
    lifetime: rankingStatusJson(given.lifetime),
    replayed: given.replayed,
  };
}
