import { z } from 'zod';
import { pageOffset, pageSize, TakeSkipQuery } from '../../http/paging.js';
import { route, type RouteDeps } from '../../http/route.js';
import type { RankingClient } from './clients.js';
import {
  CurrentRankingStatusSchema,
  HandlePointsSchema,
  LifetimeRankingSchema,
  PointsGivenSchema,
  RankingStatusPageSchema,
  RankingStatusSchema,
  RankingSumSchema,
  SeasonRankingSchema,
  ServicePointsSchema,
} from './season-schemas.js';
import { optionalStatusJson, pointsGivenJson, rankingStatusJson, seasonJson } from './season-views.js';
import type { GetCurrentRankingStatusResponse, GetSeasonRankingResponse } from '@spinroom/contracts/points/v1/seasons';

const BASE = '/api/merch-service';
const User = z.object({ userUuid: z.uuid() });
const Id = z.object({ id: z.uuid() });

const currentJson = (answer: GetCurrentRankingStatusResponse) => ({
  hasCurrentRankingStatus: answer.hasCurrentRankingStatus,
  season: answer.season ? seasonJson(answer.season) : null,
  rankingStatus: optionalStatusJson(answer.rankingStatus),
});

const seasonRankingJson = (answer: GetSeasonRankingResponse) => ({
  season: seasonJson(answer.season),
  total: answer.total,
  rankings: answer.rankings.map(rankingStatusJson),
  me: optionalStatusJson(answer.me),
});

/**
 * Ranking statuses and season rankings (spec 000's /points/ranking-status...,
 * /points/current-ranking-status..., /points/season-ranking...,
 * /points/all-seasons-ranking, /admin/ranking-status..., handle-points and
 * points/service). Reads need no token (a caller sees their own place as
 * `me`); admins list statuses and adjust points; services add points.
 */
export function rankingRoutes(deps: RouteDeps, rankings: RankingClient): void {
  const tags = ['rankings'];

  route(deps, {
    method: 'get',
    path: `${BASE}/points/ranking-status/{userUuid}`,
    summary: "A user's ranking status in every season they have points in, the latest season first",
    tags,
    auth: 'optional',
    params: User,
    response: z.array(RankingStatusSchema),
    handler: async ({ params }) =>
      (await rankings.listUserRankingStatuses({ userUuid: params.userUuid })).rankingStatuses.map(rankingStatusJson),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/points/ranking-status/sum/{userUuid}`,
    summary: "A user's points over all seasons and their place (0 without points)",
    tags,
    auth: 'optional',
    params: User,
    response: RankingSumSchema,
    handler: async ({ params }) => {
      const status = rankingStatusJson((await rankings.getLifetimeStatus({ userUuid: params.userUuid })).rankingStatus);
      return { userUuid: status.userUuid, balance: status.balance, rank: status.rank };
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/points/current-ranking-status`,
    summary: "The caller's status in the current season (hasCurrentRankingStatus false without points or a season)",
    tags,
    response: CurrentRankingStatusSchema,
    handler: async ({ caller }) => currentJson(await rankings.getCurrentRankingStatus({ userUuid: caller.userUuid })),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/points/current-ranking-status/{userUuid}`,
    summary: "A user's status in the current season",
    tags,
    auth: 'optional',
    params: User,
    response: CurrentRankingStatusSchema,
    handler: async ({ params }) => currentJson(await rankings.getCurrentRankingStatus({ userUuid: params.userUuid })),
  });

  for (const path of [`${BASE}/points/season-ranking`, `${BASE}/points/season-ranking-current`]) {
    route(deps, {
      method: 'get',
      path,
      summary: 'The current season’s ranking (take, 20 by default; skip), with the caller’s own place; 404 "There is no current season"',
      tags,
      auth: 'optional',
      query: TakeSkipQuery,
      response: SeasonRankingSchema,
      errors: [404],
      handler: async ({ query }) => seasonRankingJson(await rankings.getSeasonRanking({ seasonId: '', seasonName: '', ...query })),
    });
  }

  route(deps, {
    method: 'get',
    path: `${BASE}/points/season-ranking/{seasonName}`,
    summary: 'A season’s ranking by its name (take, skip), with the caller’s own place; 404 "Season not found"',
    tags,
    auth: 'optional',
    params: z.object({ seasonName: z.string().min(1).max(100) }),
    query: TakeSkipQuery,
    response: SeasonRankingSchema,
    errors: [404],
    handler: async ({ params, query }) =>
      seasonRankingJson(await rankings.getSeasonRanking({ seasonId: '', seasonName: params.seasonName, ...query })),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/points/all-seasons-ranking`,
    summary: 'The ranking of points over all seasons (take, skip), with the caller’s own place',
    tags,
    auth: 'optional',
    query: TakeSkipQuery,
    response: LifetimeRankingSchema,
    handler: async ({ query }) => {
      const answer = await rankings.getLifetimeRanking(query);
      return { total: answer.total, rankings: answer.rankings.map(rankingStatusJson), me: optionalStatusJson(answer.me) };
    },
  });

  for (const lifetime of [false, true]) {
    const path = `${BASE}/admin/ranking-status${lifetime ? '-lifetime' : ''}`;
    route(deps, {
      method: 'get',
      path,
      summary: lifetime
        ? 'Lifetime ranking statuses, the highest balance first (admins); take, skip, userUuid'
        : 'Ranking statuses, the latest season first, then the highest balance (admins); take, skip, seasonId, userUuid',
      tags: ['admin'],
      query: z.object({
        take: pageSize(),
        skip: pageOffset(),
        userUuid: z.uuid().optional(),
        ...(lifetime ? {} : { seasonId: z.uuid().optional() }),
      }),
      response: RankingStatusPageSchema,
      errors: [403],
      handler: async ({ query }) => {
        const page = await rankings.listRankingStatuses({
          lifetime,
          seasonId: ('seasonId' in query ? (query.seasonId as string | undefined) : undefined) ?? '',
          userUuid: query.userUuid ?? '',
          take: query.take,
          skip: query.skip,
        });
        return { total: page.total, rankingStatuses: page.rankingStatuses.map(rankingStatusJson) };
      },
    });
    route(deps, {
      method: 'get',
      path: `${path}/{id}`,
      summary: `One ${lifetime ? 'lifetime ' : ''}ranking status (admins); 404 "Ranking status not found"`,
      tags: ['admin'],
      params: Id,
      response: RankingStatusSchema,
      errors: [403, 404],
      handler: async ({ params }) => rankingStatusJson((await rankings.getRankingStatus({ lifetime, id: params.id })).rankingStatus),
    });
  }

  route(deps, {
    method: 'post',
    path: `${BASE}/points/season/admin/handle-points`,
    summary:
      "Adds (or, negative, takes) a user's points with a reason (admins): to the named season, else the current one, and to their lifetime points. 404 for an unknown season; 409 below zero",
    tags,
    status: 201,
    body: HandlePointsSchema,
    response: PointsGivenSchema,
    errors: [403, 404, 409],
    handler: async ({ body }) =>
      pointsGivenJson(await rankings.handlePoints({ ...body, seasonId: body.seasonId ?? '', idempotencyKey: body.idempotencyKey ?? '' })),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/points/service`,
    summary: 'Adds points to a user with a reason (services only), to the current season and their lifetime points; once per key',
    tags,
    status: 201,
    body: ServicePointsSchema,
    response: PointsGivenSchema,
    errors: [403],
    handler: async ({ body }) => pointsGivenJson(await rankings.addServicePoints(body)),
  });
}
