import type { EventInput } from '@spinroom/contracts/room/v1/community_service';
import { z } from 'zod';
import { SerialId } from '../../http/ids.js';
import { route, type RouteDeps } from '../../http/route.js';
import type { RoomClients } from './clients.js';
import { communityClientOf } from './communities.js';
import {
  AdminEventSchema,
  CommunityKey,
  communityRef,
  crudQuerySchema,
  EventCreateSchema,
  eventJson,
  EventListQuery,
  EventPageSchema,
  EventPatchSchema,
  EventSchema,
  pick,
  rawQuery,
} from './community-schemas.js';
import { BASE } from './rooms.js';

/** A create or change body as the service's input: null clears imageUrl and the community (sent as ''). */
function inputOf(body: z.infer<typeof EventPatchSchema>): EventInput {
  return {
    name: body.name,
    slug: body.slug,
    description: body.description,
    imageUrl: body.imageUrl === null ? '' : body.imageUrl,
    room: body.room,
    community: body.community === null ? '' : body.community,
    startTime: body.startTime === undefined ? undefined : new Date(body.startTime),
    endTime: body.endTime === undefined ? undefined : new Date(body.endTime),
  };
}

/**
 * Events (spec 001 "Events" and /admin/events): a room's show at a time, in a
 * community or not. At its start the room goes live and the community's
 * members are notified (the room service's events clock; services/room/README.md).
 * Lists show events in rooms the caller sees listed, soonest first.
 */
export function eventRoutes(deps: RouteDeps, rooms: RoomClients): void {
  const events = communityClientOf(rooms);
  const tags = ['events'];
  const admin = ['admin'];
  const AdminQuery = crudQuerySchema(
    'slug, name, description, imageUrl, roomId, communityId, startTime, endTime, liveAt, createdBy, createdAt, updatedAt',
  );

  route(deps, {
    method: 'get',
    path: `${BASE}/admin/events`,
    summary: 'Events in the @nestjsx/crud query syntax (global roles); unknown fields are a 400',
    tags: admin,
    query: AdminQuery,
    response: z
      .object({
        data: z.array(AdminEventSchema),
        count: z.number().int(),
        total: z.number().int(),
        page: z.number().int(),
        pageCount: z.number().int(),
      })
      .openapi('AdminEventPage'),
    errors: [403],
    handler: async ({ req }) => {
      const page = await events.listEventsAsAdmin({ query: rawQuery(req.originalUrl) });
      return { ...page, data: page.data.map((e) => pick(eventJson(e), page.fields)) };
    },
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/admin/events/{id}`,
    summary: 'An event by numeric id (global roles); `fields` chooses the columns',
    tags: admin,
    params: z.object({ id: SerialId }),
    query: AdminQuery,
    response: AdminEventSchema,
    errors: [403, 404],
    handler: async ({ params, req }) => {
      const { event, fields } = await events.getEventAsAdmin({ id: params.id, query: rawQuery(req.originalUrl) });
      return pick(eventJson(event), fields);
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/events`,
    summary: "Events, soonest first, ended ones too (limit 1..100, default 20; `community` keeps one community's)",
    tags,
    query: EventListQuery,
    response: EventPageSchema,
    errors: [404],
    handler: async ({ query }) => {
      const page = await events.listEvents({ upcoming: false, limit: query.limit, offset: query.offset, community: query.community ?? '' });
      return { events: page.events.map(eventJson), total: page.total };
    },
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/events/upcoming`,
    summary: 'Events not ended yet (upcoming and live), soonest first',
    tags,
    query: EventListQuery,
    response: EventPageSchema,
    errors: [404],
    handler: async ({ query }) => {
      const page = await events.listEvents({ upcoming: true, limit: query.limit, offset: query.offset, community: query.community ?? '' });
      return { events: page.events.map(eventJson), total: page.total };
    },
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/events`,
    summary:
      "Schedules an event in a room (global roles, or the room's owner, coOwners and moderators; a community's owner and moderators file it under the community). Its room goes live at startTime and the community's members are notified",
    tags,
    status: 201,
    body: EventCreateSchema,
    response: EventSchema,
    errors: [403, 404, 409],
    handler: async ({ body }) => eventJson((await events.createEvent({ input: inputOf(body) })).event),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/events/slug/{slug}`,
    summary: 'An event by its slug; 404 "Event not found"',
    tags,
    params: z.object({ slug: CommunityKey }),
    response: EventSchema,
    errors: [404],
    handler: async ({ params }) => eventJson((await events.getEvent({ event: { id: 0, uuid: '', slug: params.slug } })).event),
  });
  const Params = z.object({ id: CommunityKey });
  route(deps, {
    method: 'get',
    path: `${BASE}/events/{id}`,
    summary: 'An event by numeric id, uuid or slug; 404 "Event not found"',
    tags,
    params: Params,
    response: EventSchema,
    errors: [404],
    handler: async ({ params }) => eventJson((await events.getEvent({ event: communityRef(params.id) })).event),
  });
  route(deps, {
    method: 'patch',
    path: `${BASE}/events/{id}`,
    summary: 'Changes an event (as who may schedule it); a start moved to the future makes the room go live again then',
    tags,
    params: Params,
    body: EventPatchSchema,
    response: EventSchema,
    errors: [403, 404, 409],
    handler: async ({ params, body }) =>
      eventJson((await events.updateEvent({ event: communityRef(params.id), input: inputOf(body) })).event),
  });
  route(deps, {
    method: 'delete',
    path: `${BASE}/events/{id}`,
    summary: 'Deletes an event (as who may schedule it)',
    tags,
    params: Params,
    response: z.object({}).openapi('EventDeleted'),
    errors: [403, 404],
    handler: async ({ params }) => {
      await events.deleteEvent({ event: communityRef(params.id) });
      return {};
    },
  });
}
