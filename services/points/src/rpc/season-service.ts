import type { Season as SeasonMessage, SeasonServiceServer } from '@spinroom/contracts/points/v1/seasons';
import { badRequest, type CallContext, type createUnaryFactory } from '@spinroom/platform';
import type { Season, Seasons } from '../domain/seasons.js';
import type { Actor } from '../domain/tokens.js';

export const actorOf = (context: CallContext): Actor => ({
  userUuid: context.caller.userUuid,
  role: context.caller.role,
  kind: context.caller.kind,
});

/** A page: `limit` 25 by default, at most 100. */
export const pageOf = (request: { offset: number; limit: number }) => ({
  offset: Math.max(request.offset, 0),
  limit: Math.min(Math.max(request.limit || 25, 1), 100),
});

export const seasonMessage = (season: Season): SeasonMessage => ({ ...season, end: season.end ?? undefined });

function required(date: Date | undefined, what: string): Date {
  if (!date) throw badRequest(`${what} is required`);
  return date;
}

/** gRPC handlers of spinroom.points.v1.SeasonService: who calls, then the domain decides. */
export function seasonServiceHandlers(deps: { seasons: Seasons; unary: ReturnType<typeof createUnaryFactory> }): SeasonServiceServer {
  const { seasons, unary } = deps;
  return {
    createSeason: unary(async (request, context) => ({
      season: seasonMessage(await seasons.create(actorOf(context), { name: request.name, start: required(request.start, 'start') })),
    })),
    patchSeason: unary(async (request, context) => ({
      season: seasonMessage(await seasons.patch(actorOf(context), request.id, { name: request.name, start: request.start })),
    })),
    deleteSeason: unary(async (request, context) => {
      await seasons.delete(actorOf(context), request.id);
      return {};
    }),
    getSeason: unary(async (request, context) => ({ season: seasonMessage(await seasons.get(actorOf(context), request.id)) })),
    listSeasons: unary(async (request, context) => {
      const { seasons: list, total } = await seasons.list(actorOf(context), pageOf(request));
      return { seasons: list.map(seasonMessage), total };
    }),
    getCurrentSeason: unary.public(async () => ({ season: seasonMessage(await seasons.current()) })),
    getAdjacentSeason: unary.public(async (request) => ({
      season: seasonMessage(await seasons.adjacent(required(request.from, 'from'), request.next)),
    })),
  };
}
