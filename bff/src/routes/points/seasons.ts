import { z } from 'zod';
import { LimitOffsetDefaults } from '../../http/paging.js';
import { route, type RouteDeps } from '../../http/route.js';
import type { SeasonClient } from './clients.js';
import { Instant, SeasonCreateSchema, SeasonPageSchema, SeasonPatchSchema, SeasonSchema } from './season-schemas.js';
import { seasonJson } from './season-views.js';

const BASE = '/api/merch-service';
const Id = z.object({ id: z.uuid() });
const Start = z.object({ seasonStart: Instant });

/**
 * Seasons (spec 000: POST /points/season, PATCH and DELETE /points/season/{id},
 * GET /seasons/current, /admin/seasons, /admin/seasons/{id}, DELETE
 * /admin/seasons/{id}, and the next and previous season by a start). Admins
 * write and list; anyone reads the current, next and previous season (the
 * bearer token is optional on the points service's reads).
 */
export function seasonRoutes(deps: RouteDeps, seasons: SeasonClient): void {
  const tags = ['seasons'];

  route(deps, {
    method: 'post',
    path: `${BASE}/points/season`,
    summary: 'Creates a season (admins); it ends where the next one starts. 409 when another season has the name or the start',
    tags,
    status: 201,
    body: SeasonCreateSchema,
    response: SeasonSchema,
    errors: [403, 409],
    handler: async ({ body }) => seasonJson((await seasons.createSeason({ name: body.name, start: new Date(body.start) })).season),
  });

  route(deps, {
    method: 'patch',
    path: `${BASE}/points/season/{id}`,
    summary: 'Changes a season (admins); fields left out stay. 409 when another season has the name or the start',
    tags,
    params: Id,
    body: SeasonPatchSchema,
    response: SeasonSchema,
    errors: [403, 404, 409],
    handler: async ({ params, body }) =>
      seasonJson(
        (await seasons.patchSeason({ id: params.id, name: body.name, start: body.start === undefined ? undefined : new Date(body.start) }))
          .season,
      ),
  });

  for (const path of [`${BASE}/points/season/{id}`, `${BASE}/admin/seasons/{id}`]) {
    route(deps, {
      method: 'delete',
      path,
      summary: 'Deletes a season (admins); 409 once points were earned in it',
      tags,
      params: Id,
      response: z.object({}).openapi('SeasonDeleted'),
      errors: [403, 404, 409],
      handler: async ({ params }) => {
        await seasons.deleteSeason({ id: params.id });
        return {};
      },
    });
  }

  route(deps, {
    method: 'get',
    path: `${BASE}/seasons/current`,
    summary: 'The season now is in; 404 "There is no current season"',
    tags,
    auth: 'optional',
    response: SeasonSchema,
    errors: [404],
    handler: async () => seasonJson((await seasons.getCurrentSeason({})).season),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/admin/seasons`,
    summary: 'Every season, the latest start first (admins); limit (20 by default) and offset',
    tags,
    query: LimitOffsetDefaults,
    response: SeasonPageSchema,
    errors: [403],
    handler: async ({ query }) => {
      const page = await seasons.listSeasons({ offset: query.offset, limit: query.limit });
      return { seasons: page.seasons.map(seasonJson), total: page.total };
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/admin/seasons/{id}`,
    summary: 'One season (admins)',
    tags,
    params: Id,
    response: SeasonSchema,
    errors: [403, 404],
    handler: async ({ params }) => seasonJson((await seasons.getSeason({ id: params.id })).season),
  });

  for (const [which, next] of [
    ['next', true],
    ['prev', false],
  ] as const) {
    route(deps, {
      method: 'get',
      path: `${BASE}/points/season-ranking/${which}-season/{seasonStart}`,
      summary: next
        ? 'The first season starting after seasonStart; 404 "There is no next season"'
        : 'The last season starting before seasonStart; 404 "There is no previous season"',
      tags,
      auth: 'optional',
      params: Start,
      response: SeasonSchema,
      errors: [404],
      handler: async ({ params }) => seasonJson((await seasons.getAdjacentSeason({ from: new Date(params.seasonStart), next })).season),
    });
  }
}
