import type {
  PointRecord as PointMessage,
  RankingServiceServer,
  RankingStatus as RankingStatusMessage,
} from '@spinroom/contracts/points/v1/seasons';
import { unauthorized, type createUnaryFactory } from '@spinroom/platform';
import type { PointRecord } from '../db/point-store.js';
import type { PointsGiven, RankedStatus, Rankings } from '../domain/rankings.js';
import { actorOf, seasonMessage } from './season-service.js';

/** take: 20 by default, at most 100; skip from 0. */
const pageOf = (request: { take: number; skip: number }) => ({
  take: Math.min(Math.max(request.take || 20, 1), 100),
  skip: Math.max(request.skip, 0),
});

export const statusMessage = (status: RankedStatus): RankingStatusMessage => ({
  ...status,
  seasonId: status.seasonId ?? undefined,
  seasonName: status.seasonName ?? undefined,
});

const pointMessage = (point: PointRecord): PointMessage => ({
  id: point.id,
  userUuid: point.userUuid,
  seasonId: point.seasonId ?? undefined,
  kind: point.kind,
  amount: point.amount,
  reason: point.reason,
  createdAt: point.createdAt,
});

const givenMessage = (given: PointsGiven) => ({
  point: pointMessage(given.point),
  rankingStatus: given.rankingStatus ? statusMessage(given.rankingStatus) : undefined,
  lifetime: statusMessage(given.lifetime),
  replayed: given.replayed,
});

/** gRPC handlers of spinroom.points.v1.RankingService: reads are public (a caller's own place when a token comes). */
export function rankingServiceHandlers(deps: { rankings: Rankings; unary: ReturnType<typeof createUnaryFactory> }): RankingServiceServer {
  const { rankings, unary } = deps;
  return {
    listUserRankingStatuses: unary.public(async (request) => ({
      rankingStatuses: (await rankings.userStatuses(request.userUuid)).map(statusMessage),
    })),
    getLifetimeStatus: unary.public(async (request) => ({ rankingStatus: statusMessage(await rankings.lifetime(request.userUuid)) })),
    getCurrentRankingStatus: unary.public(async (request, context) => {
      const userUuid = request.userUuid || context.caller?.userUuid;
      if (!userUuid) throw unauthorized();
      const { season, rankingStatus } = await rankings.current(userUuid);
      return {
        hasCurrentRankingStatus: rankingStatus !== null,
        season: season ? seasonMessage(season) : undefined,
        rankingStatus: rankingStatus ? statusMessage(rankingStatus) : undefined,
      };
    }),
    getSeasonRanking: unary.public(async (request, context) => {
      const ranking = await rankings.seasonRanking(
        { seasonId: request.seasonId || undefined, seasonName: request.seasonName || undefined },
        pageOf(request),
        context.caller?.userUuid,
      );
      return {
        season: seasonMessage(ranking.season),
        total: ranking.total,
        rankings: ranking.rankings.map(statusMessage),
        me: ranking.me ? statusMessage(ranking.me) : undefined,
      };
    }),
    getLifetimeRanking: unary.public(async (request, context) => {
      const ranking = await rankings.lifetimeRanking(pageOf(request), context.caller?.userUuid);
      return {
        total: ranking.total,
        rankings: ranking.rankings.map(statusMessage),
        me: ranking.me ? statusMessage(ranking.me) : undefined,
      };
    }),
    listRankingStatuses: unary(async (request, context) => {
      const { statuses, total } = await rankings.list(actorOf(context), {
        lifetime: request.lifetime,
        seasonId: request.seasonId || undefined,
        userUuid: request.userUuid || undefined,
        ...pageOf(request),
      });
      return { total, rankingStatuses: statuses.map(statusMessage) };
    }),
    getRankingStatus: unary(async (request, context) => ({
      rankingStatus: statusMessage(await rankings.get(actorOf(context), request.id, request.lifetime)),
    })),
    handlePoints: unary(async (request, context) =>
      givenMessage(
        await rankings.handlePoints(actorOf(context), {
          userUuid: request.userUuid,
          points: request.points,
          reason: request.reason,
          seasonId: request.seasonId || undefined,
          idempotencyKey: request.idempotencyKey || undefined,
        }),
      ),
    ),
    addServicePoints: unary(async (request, context) =>
      givenMessage(
        await rankings.servicePoints(actorOf(context), {
          userUuid: request.userUuid,
          points: request.points,
          reason: request.reason,
          idempotencyKey: request.idempotencyKey,
        }),
      ),
    ),
  };
}
