import { roomUserRoles } from '@spinroom/contracts/vocabulary';
import { ROOM_ROLES } from '@spinroom/platform/core';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { RoomClient } from './clients.js';
import { BASE } from './rooms.js';
import { EmptySchema, RoomRoleSchema, RoomSchema, SlugParams, UserUuidSchema } from './schemas.js';
import { roleJson, roomJson, roomRef } from './views.js';

/** /roomUserRoles: listing, granting and removing room roles; owner changes and kicks. Each change is a moderation action. */
export function roomUserRoleRoutes(deps: RouteDeps, rooms: RoomClient): void {
  const tags = ['room user roles'];
  const Target = z.object({ userUuid: UserUuidSchema, role: z.enum(ROOM_ROLES) });

  route(deps, {
    method: 'post',
    path: `${BASE}/roomUserRoles/kick-user-from-room`,
    summary: 'Kicks a user: a kicked role for 5 minutes (a kickUser action); the live engine removes them from the live room',
    tags,
    status: 201,
    body: z.object({ userUuid: UserUuidSchema, slug: z.string().min(1).max(64) }),
    errors: [403, 404],
    response: RoomRoleSchema,
    handler: async ({ body }) => roleJson((await rooms.kickUser({ room: roomRef(body.slug), userUuid: body.userUuid })).role!),
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/roomUserRoles/no-dancefloor-users`,
    summary: 'Users in the room but not on the dance floor (from the live room; empty while it is not live)',
    tags,
    body: z.object({ slug: z.string().min(1).max(64) }),
    errors: [403, 404],
    response: z.object({ userUuids: z.array(z.string()) }),
    handler: async ({ body }) => rooms.listNoDancefloorUsers({ room: roomRef(body.slug) }),
  });
  route(deps, {
    method: 'put',
    path: `${BASE}/roomUserRoles/change-owner/{slug}`,
    summary: 'Hands the room to another user (the owner or a global role); the previous owner stays as coOwner',
    tags,
    params: SlugParams,
    body: z.object({ userUuid: UserUuidSchema }),
    errors: [403, 404],
    response: RoomSchema,
    handler: async ({ params, body }) =>
      roomJson((await rooms.changeRoomOwner({ room: roomRef(params.slug), userUuid: body.userUuid })).room),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/roomUserRoles/{slug}`,
    summary: "The room's unexpired roles",
    tags,
    params: SlugParams,
    errors: [404],
    response: z.array(RoomRoleSchema),
    handler: async ({ params }) => (await rooms.listRoomRoles({ room: roomRef(params.slug), userUuid: '' })).roles.map(roleJson),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/roomUserRoles/{slug}/{userUuid}`,
    summary: "One user's unexpired roles in the room",
    tags,
    params: SlugParams.extend({ userUuid: UserUuidSchema }),
    errors: [404],
    response: z.array(RoomRoleSchema),
    handler: async ({ params }) =>
      (await rooms.listRoomRoles({ room: roomRef(params.slug), userUuid: params.userUuid })).roles.map(roleJson),
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/roomUserRoles/{slug}`,
    summary:
      'Grants a role, optionally until expirationTime: moderators grant dj and restrictions to users below them, coOwners also moderator, the owner also coOwner; banned with an expirationTime is a temporary ban',
    tags,
    status: 201,
    params: SlugParams,
    body: Target.extend({ expirationTime: z.iso.datetime({ offset: true }).nullable().optional() }),
    errors: [403, 404],
    response: RoomRoleSchema,
    handler: async ({ params, body }) =>
      roleJson(
        (
          await rooms.grantRoomRole({
            room: roomRef(params.slug),
            userUuid: body.userUuid,
            role: roomUserRoles.valueOf(body.role),
            expirationTime: body.expirationTime ? new Date(body.expirationTime) : undefined,
          })
        ).role!,
      ),
  });
  route(deps, {
    method: 'delete',
    path: `${BASE}/roomUserRoles/{slug}`,
    summary: 'Removes a role (the same ladder as granting; anyone may give up their own dj, moderator or coOwner role)',
    tags,
    params: SlugParams,
    body: Target,
    errors: [403, 404],
    response: EmptySchema,
    handler: async ({ params, body }) => {
      await rooms.removeRoomRole({ room: roomRef(params.slug), userUuid: body.userUuid, role: roomUserRoles.valueOf(body.role) });
      return {};
    },
  });
}
