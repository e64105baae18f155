import type { CommunityInput } from '@spinroom/contracts/room/v1/community_service';
import { AppError } from '@spinroom/platform/core';
import { z } from 'zod';
import { LimitOffsetDefaults } from '../../http/paging.js';
import { SerialId } from '../../http/ids.js';
import { route, type RouteDeps } from '../../http/route.js';
import type { CommunityClient, RoomClients } from './clients.js';
import {
  AdminCommunitySchema,
  communityJson,
  CommunityBulkSchema,
  CommunityCreateSchema,
  CommunityKey,
  CommunityMemberPageSchema,
  CommunityMemberSchema,
  CommunityPatchSchema,
  communityRef,
  CommunityRoomsChangeSchema,
  CommunitySchema,
  crudQuerySchema,
  memberJson,
  pick,
  rawQuery,
  RoomKey,
} from './community-schemas.js';
import { BASE } from './rooms.js';
import { RoomPageSchema } from './schemas.js';
import { roomJson, roomRef } from './views.js';

/** Every call refuses with 503 when the BFF runs without the room service's CommunityService client. */
export function communityClientOf(rooms: RoomClients): CommunityClient {
  if (rooms.communities) return rooms.communities;
  const refuse = () => Promise.reject(new AppError(503, 'Communities are not available'));
  return new Proxy({}, { get: () => refuse }) as CommunityClient;
}

/** A create or change body as the service's input: null clears imageUrl and ownerUuid (sent as ''). */
function inputOf(body: z.infer<typeof CommunityPatchSchema>): CommunityInput {
  return {
    name: body.name,
    slug: body.slug,
    description: body.description,
    imageUrl: body.imageUrl === null ? '' : body.imageUrl,
    ownerUuid: body.ownerUuid === null ? '' : body.ownerUuid,
  };
}

const AdminPageSchema = z
  .object({
    data: z.array(AdminCommunitySchema),
    count: z.number().int(),
    total: z.number().int(),
    page: z.number().int(),
    pageCount: z.number().int(),
  })
  .openapi('AdminCommunityPage');

const CommunityParams = z.object({ id: CommunityKey });
const CommunityPageSchema = z.object({ communities: z.array(CommunitySchema), total: z.number().int() }).openapi('CommunityPage');
const RoomsBody = z.object({ rooms: z.array(RoomKey).min(1).max(100) }).openapi('CommunityRooms');

/**
 * Communities (spec 001 "Communities" and the /admin/communities paths): the
 * admin list in the @nestjsx/crud syntax, create (one or bulk), change,
 * replace and delete for global roles; a community by id, uuid or slug with
 * the caller's membership (clients check jqbx and web3 so); members and rooms
 * by limit and offset; join and leave; the owner and moderators manage members
 * and rooms; a room's communities and the caller's.
 */
export function communityRoutes(deps: RouteDeps, rooms: RoomClients): void {
  const communities = communityClientOf(rooms);
  const tags = ['communities'];
  const admin = ['admin'];
  const AdminQuery = crudQuerySchema('slug, name, description, imageUrl, ownerUuid, createdAt, updatedAt');

  route(deps, {
    method: 'get',
    path: `${BASE}/admin/communities`,
    summary: 'Communities in the @nestjsx/crud query syntax (global roles); unknown fields are a 400',
    tags: admin,
    query: AdminQuery,
    response: AdminPageSchema,
    errors: [403],
    handler: async ({ req }) => {
      const page = await communities.listCommunitiesAsAdmin({ query: rawQuery(req.originalUrl) });
      return { ...page, data: page.data.map((c) => pick(communityJson(c), page.fields)) };
    },
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/admin/communities/bulk`,
    summary: 'Creates several communities, all or none (global roles); a slug taken is 409',
    tags: admin,
    status: 201,
    body: CommunityBulkSchema,
    response: z.array(CommunitySchema),
    errors: [403, 409],
    handler: async ({ body }) =>
      (await communities.createCommunities({ communities: body.bulk.map(inputOf) })).communities.map(communityJson),
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/admin/communities`,
    summary: 'Creates a community (global roles); a slug taken is 409 "A community with this slug already exists"',
    tags: admin,
    status: 201,
    body: CommunityCreateSchema,
    response: CommunitySchema,
    errors: [403, 409],
    handler: async ({ body }) => communityJson((await communities.createCommunities({ communities: [inputOf(body)] })).communities[0]),
  });
  const IdParams = z.object({ id: SerialId });
  route(deps, {
    method: 'get',
    path: `${BASE}/admin/communities/{id}`,
    summary: 'A community by numeric id (global roles); `fields` chooses the columns',
    tags: admin,
    params: IdParams,
    query: AdminQuery,
    response: AdminCommunitySchema,
    errors: [403, 404],
    handler: async ({ params, req }) => {
      const { community, fields } = await communities.getCommunityAsAdmin({ id: params.id, query: rawQuery(req.originalUrl) });
      return pick(communityJson(community), fields);
    },
  });
  route(deps, {
    method: 'patch',
    path: `${BASE}/admin/communities/{id}`,
    summary:
      'Changes a community (global roles); a new owner becomes a member as owner, the previous one stays as moderator. jqbx and web3 keep their slugs (403)',
    tags: admin,
    params: IdParams,
    body: CommunityPatchSchema,
    response: CommunitySchema,
    errors: [403, 404, 409],
    handler: async ({ params, body }) =>
      communityJson((await communities.updateCommunity({ id: params.id, input: inputOf(body), replace: false })).community),
  });
  route(deps, {
    method: 'put',
    path: `${BASE}/admin/communities/{id}`,
    summary: 'Replaces a community (global roles): fields left out take their defaults (no description, image or owner)',
    tags: admin,
    params: IdParams,
    body: CommunityCreateSchema,
    response: CommunitySchema,
    errors: [403, 404, 409],
    handler: async ({ params, body }) =>
      communityJson((await communities.updateCommunity({ id: params.id, input: inputOf(body), replace: true })).community),
  });
  route(deps, {
    method: 'delete',
    path: `${BASE}/admin/communities/{id}`,
    summary: 'Deletes a community with its memberships and room links, not its rooms (global roles); jqbx and web3 stay (403)',
    tags: admin,
    params: IdParams,
    response: z.object({}).openapi('CommunityDeleted'),
    errors: [403, 404],
    handler: async ({ params }) => {
      await communities.deleteCommunity({ id: params.id });
      return {};
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/user-communities`,
    summary: "The caller's communities, in the order they joined",
    tags,
    response: z.array(CommunitySchema),
    handler: async () => (await communities.listUserCommunities({})).communities.map(communityJson),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/room-communities/{roomId}`,
    summary: 'The communities a room (slug or uuid) belongs to; 404 "Room not found"',
    tags,
    params: z.object({ roomId: RoomKey }),
    response: z.array(CommunitySchema),
    errors: [404],
    handler: async ({ params }) => (await communities.listRoomCommunities({ room: roomRef(params.roomId) })).communities.map(communityJson),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/communities`,
    summary:
      "Every community, to browse: the most members first, with the caller's membership; `search` matches the name or slug (limit 1..100, default 20)",
    tags,
    query: LimitOffsetDefaults.extend({ search: z.string().max(100).default('') }),
    response: CommunityPageSchema,
    handler: async ({ query }) => {
      const { communities: found, total } = await communities.listCommunities(query);
      return { communities: found.map(communityJson), total };
    },
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/communities/{id}`,
    summary: 'A community by numeric id, uuid or slug, with the caller\'s membership (isMember, memberRole); 404 "Community not found"',
    tags,
    params: CommunityParams,
    response: CommunitySchema,
    errors: [404],
    handler: async ({ params }) => communityJson((await communities.getCommunity({ community: communityRef(params.id) })).community),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/communities/{id}/users`,
    summary: "A community's members: the owner, then moderators, then members by joining time (limit 1..100, default 20)",
    tags,
    params: CommunityParams,
    query: LimitOffsetDefaults,
    response: CommunityMemberPageSchema,
    errors: [404],
    handler: async ({ params, query }) => {
      const { users, total } = await communities.listCommunityMembers({ community: communityRef(params.id), ...query });
      return { users: users.map(memberJson), total };
    },
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/communities/{id}/rooms`,
    summary:
      "A community's rooms the caller sees listed (PUBLIC listed ones, those where they hold a role; all for global roles), newest first",
    tags,
    params: CommunityParams,
    query: LimitOffsetDefaults,
    response: RoomPageSchema,
    errors: [404],
    handler: async ({ params, query }) => {
      const { rooms: found, total } = await communities.listCommunityRooms({ community: communityRef(params.id), ...query });
      return { rooms: found.map(roomJson), total };
    },
  });
  for (const [action, summary] of [
    ['join', 'The caller joins the community (joining again changes nothing); 403 "Guests cannot join communities"'],
    ['leave', 'The caller leaves the community (not a member: nothing changes); 403 "The owner cannot leave the community"'],
  ] as const) {
    route(deps, {
      method: 'post',
      path: `${BASE}/communities/{id}/${action}`,
      summary,
      tags,
      params: CommunityParams,
      response: CommunitySchema,
      errors: [403, 404],
      handler: async ({ params }) => {
        const ref = { community: communityRef(params.id) };
        const answer = action === 'join' ? await communities.joinCommunity(ref) : await communities.leaveCommunity(ref);
        return communityJson(answer.community);
      },
    });
  }
  const MemberParams = z.object({ id: CommunityKey, userId: z.uuid() });
  route(deps, {
    method: 'put',
    path: `${BASE}/communities/{id}/users/{userId}`,
    summary:
      "Adds a user to the community, or changes a member's role (its owner and moderators, global roles); only the owner names moderators",
    tags,
    params: MemberParams,
    body: z
      .object({ role: z.enum(['member', 'moderator']).optional().openapi({ description: 'member by default' }) })
      .openapi('CommunityMemberPut'),
    response: CommunityMemberSchema,
    errors: [403, 404],
    handler: async ({ params, body }) =>
      memberJson(
        (await communities.addCommunityMember({ community: communityRef(params.id), userUuid: params.userId, role: body.role ?? '' }))
          .member,
      ),
  });
  route(deps, {
    method: 'delete',
    path: `${BASE}/communities/{id}/users/{userId}`,
    summary:
      'Removes a member: the member themselves, the owner or a moderator (members below them), a global role; never the owner. 404 "This user is not a member of the community"',
    tags,
    params: MemberParams,
    response: z.object({ removed: z.boolean() }).openapi('CommunityMemberRemoved'),
    errors: [403, 404],
    handler: async ({ params }) => communities.removeCommunityMember({ community: communityRef(params.id), userUuid: params.userId }),
  });

  const addRooms = async (id: string, keys: string[]) => {
    const { community, added } = await communities.addCommunityRooms({ community: communityRef(id), rooms: keys.map(roomRef) });
    return { community: communityJson(community), changed: added };
  };
  const removeRooms = async (id: string, keys: string[]) => {
    const { community, removed } = await communities.removeCommunityRooms({ community: communityRef(id), rooms: keys.map(roomRef) });
    return { community: communityJson(community), changed: removed };
  };
  const addSummary =
    'Adds rooms to the community (its owner and moderators, global roles); a PRIVATE or unlisted room only by its own owner, coOwners or moderators. 404 "Room not found"';
  const removeSummary = "Takes rooms out of the community (its owner and moderators, global roles, or each room's owner and coOwners)";
  route(deps, {
    method: 'post',
    path: `${BASE}/communities/{id}/add`,
    summary: `${addSummary}; the body lists them`,
    tags,
    params: CommunityParams,
    body: RoomsBody,
    response: CommunityRoomsChangeSchema,
    errors: [403, 404],
    handler: async ({ params, body }) => addRooms(params.id, body.rooms),
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/communities/{id}/remove`,
    summary: `${removeSummary}; the body lists them`,
    tags,
    params: CommunityParams,
    body: RoomsBody,
    response: CommunityRoomsChangeSchema,
    errors: [403, 404],
    handler: async ({ params, body }) => removeRooms(params.id, body.rooms),
  });
  const RoomParams = z.object({ id: CommunityKey, roomId: RoomKey });
  for (const path of ['/communities/{id}/rooms/{roomId}', '/communities/{id}/{roomId}']) {
    const [add, remove] = path.includes('/rooms/') ? (['put', 'delete'] as const) : (['post', 'delete'] as const);
    route(deps, {
      method: add,
      path: `${BASE}${path}`,
      summary: `${addSummary} (one room, by slug or uuid)`,
      tags,
      params: RoomParams,
      response: CommunityRoomsChangeSchema,
      errors: [403, 404],
      handler: async ({ params }) => addRooms(params.id, [params.roomId]),
    });
    route(deps, {
      method: remove,
      path: `${BASE}${path}`,
      summary: `${removeSummary} (one room, by slug or uuid)`,
      tags,
      params: RoomParams,
      response: CommunityRoomsChangeSchema,
      errors: [403, 404],
      handler: async ({ params }) => removeRooms(params.id, [params.roomId]),
    });
  }
}
