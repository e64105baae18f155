import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { SocialClient } from './clients.js';
import { BASE, Deleted, DeviceSchema, DjFanSchema, DjSummarySchema, pageOf, SkipTakeQuery, UuidParam } from './schemas.js';
import { deviceJson, djJson, fanJson } from './views.js';

const PATH = `${BASE}/dj-fans`;
const FanPage = pageOf(DjFanSchema, 'DjFanPage');

/**
 * DJ fans (spec 001: POST and GET /dj-fans; GET /dj-fans/dj-fans-paginated/{id},
 * /dj-fans/count/{id}, /dj-fans/dj-fans/{id}, /dj-fans/{id}/djs-followed,
 * /dj-fans/admin/{id}, /dj-fans/dj-fan/{id}; DELETE /dj-fans/{id}; GET
 * /dj-fans/devices/list; GET /admin/djs and /admin/djs/{id}). Fans and
 * following lists are 12 a page (skip, take) with their total, so a client
 * asks for the next page only while items remain.
 */
export function djFanRoutes(deps: RouteDeps, social: SocialClient): void {
  const tags = ['dj fans'];

  route(deps, {
    method: 'post',
    path: PATH,
    summary: 'The caller becomes a fan of a DJ (idempotent; announced as social.dj-followed); guests may not (403); 400 for oneself',
    tags,
    status: 201,
    body: z.object({ djUuid: z.uuid() }).openapi('FollowDjRequest'),
    response: DjFanSchema,
    errors: [403, 404],
    handler: async ({ body }) => fanJson((await social.followDj({ djUuid: body.djUuid })).fan),
  });

  route(deps, {
    method: 'get',
    path: PATH,
    summary: 'The DJs the caller follows, newest first, 12 a page (skip, take)',
    tags,
    query: SkipTakeQuery,
    response: FanPage,
    handler: async ({ query }) => {
      const { fans, total } = await social.listFollowedDjs({ userUuid: '', page: query });
      return { data: fans.map(fanJson), total, ...query };
    },
  });

  route(deps, {
    method: 'get',
    path: `${PATH}/dj-fans-paginated/{id}`,
    summary: "A DJ's fans, newest first, 12 a page (skip, take), with their total",
    tags,
    params: UuidParam,
    query: SkipTakeQuery,
    response: FanPage,
    handler: async ({ params, query }) => {
      const { fans, total } = await social.listDjFans({ djUuid: params.id, page: query });
      return { data: fans.map(fanJson), total, ...query };
    },
  });

  route(deps, {
    method: 'get',
    path: `${PATH}/count/{id}`,
    summary: 'How many fans a user has (count, also as fans) and how many DJs they follow (following)',
    tags,
    params: UuidParam,
    response: z
      .object({ count: z.number().int().min(0), fans: z.number().int().min(0), following: z.number().int().min(0) })
      .openapi('DjFanCount'),
    handler: async ({ params }) => {
      const { fans, following } = await social.countDjFans({ userUuid: params.id });
      return { count: fans, fans, following };
    },
  });

  route(deps, {
    method: 'get',
    path: `${PATH}/dj-fans/{id}`,
    summary: "A DJ's fans, newest first, as a list (skip, take: 12 by default)",
    tags,
    params: UuidParam,
    query: SkipTakeQuery,
    response: z.array(DjFanSchema).openapi('DjFanList'),
    handler: async ({ params, query }) => (await social.listDjFans({ djUuid: params.id, page: query })).fans.map(fanJson),
  });

  route(deps, {
    method: 'get',
    path: `${PATH}/{id}/djs-followed`,
    summary: 'The DJs a user follows, newest first, 12 a page (skip, take), with their total',
    tags,
    params: UuidParam,
    query: SkipTakeQuery,
    response: FanPage,
    handler: async ({ params, query }) => {
      const { fans, total } = await social.listFollowedDjs({ userUuid: params.id, page: query });
      return { data: fans.map(fanJson), total, ...query };
    },
  });

  route(deps, {
    method: 'get',
    path: `${PATH}/admin/{id}`,
    summary: "Admins: a DJ's numbers and fans, newest first (skip, take)",
    tags,
    params: UuidParam,
    query: SkipTakeQuery,
    response: z.object({ dj: DjSummarySchema, fans: FanPage }).openapi('DjFansAsAdmin'),
    errors: [403],
    handler: async ({ params, query }) => {
      const { dj } = await social.getDjAsAdmin({ djUuid: params.id });
      const { fans, total } = await social.listDjFans({ djUuid: params.id, page: query });
      return { dj: djJson(dj), fans: { data: fans.map(fanJson), total, ...query } };
    },
  });

  route(deps, {
    method: 'get',
    path: `${PATH}/dj-fan/{id}`,
    summary: "The caller's fan record of DJ {id}; 404 'DJ fan not found' when the caller does not follow them",
    tags,
    params: UuidParam,
    response: DjFanSchema,
    errors: [404],
    handler: async ({ params }) => fanJson((await social.getDjFan({ djUuid: params.id })).fan),
  });

  route(deps, {
    method: 'delete',
    path: `${PATH}/{id}`,
    summary: "The caller stops following a DJ ({id}: the DJ's uuid or the fan record's id); 404 'DJ fan not found'",
    tags,
    params: UuidParam,
    response: Deleted,
    errors: [404],
    handler: async ({ params }) => {
      await social.unfollowDj({ id: params.id });
      return {};
    },
  });

  route(deps, {
    method: 'get',
    path: `${PATH}/devices/list`,
    summary:
      "Services and admins: the devices of a DJ's fans, a page at a time in device id order (after: the last id of the previous page; take, 500 by default)",
    tags,
    query: z.object({
      djUuid: z.uuid(),
      after: z.uuid().optional(),
      take: z.coerce.number().int().min(1).max(1000).default(500),
    }),
    response: z.array(DeviceSchema).openapi('DjFanDeviceList'),
    errors: [403],
    handler: async ({ query }) =>
      (await social.listDjFanDevices({ djUuid: query.djUuid, afterId: query.after ?? '', take: query.take })).devices.map(deviceJson),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/admin/djs`,
    summary: 'Admins: DJs by their number of fans, most first (skip, take)',
    tags,
    query: SkipTakeQuery,
    response: pageOf(DjSummarySchema, 'DjSummaryPage'),
    errors: [403],
    handler: async ({ query }) => {
      const { djs, total } = await social.listDjsAsAdmin({ page: query });
      return { data: djs.map(djJson), total, ...query };
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/admin/djs/{id}`,
    summary: "Admins: one DJ's numbers (fans, following, the last follow)",
    tags,
    params: UuidParam,
    response: DjSummarySchema,
    errors: [403],
    handler: async ({ params }) => djJson((await social.getDjAsAdmin({ djUuid: params.id })).dj),
  });
}
