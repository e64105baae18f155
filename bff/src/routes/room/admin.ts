import { RoomListing, RoomRef } from '@spinroom/contracts/room/v1/room_service';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { RoomClient } from './clients.js';
import { BASE } from './rooms.js';
import { RoomSchema, UpdateRoomSchema, PromoteRoomSchema, RoomSettingsFields } from './schemas.js';
import { roomJson, roomRef, settingsMessage } from './views.js';
import { LimitOffsetDefaults } from '../../http/paging.js';
import { SerialId } from '../../http/ids.js';

/**
 * Admin paths over rooms. The list takes limit and offset only for now (the
 * @nestjsx/crud query syntax is not in the platform yet) and answers the admin
 * list shape {data, count, total, page, pageCount}.
 */
export function roomAdminRoutes(deps: RouteDeps, rooms: RoomClient): void {
  const tags = ['admin'];
  const IdParams = z.object({ id: SerialId });
  // The room service decides who may use these paths (`admin: true`): only global roles.

  route(deps, {
    method: 'get',
    path: `${BASE}/admin/rooms`,
    summary: 'Every room (admins), oldest first; limit and offset (the crud query syntax is not supported yet)',
    tags,
    errors: [403],
    query: LimitOffsetDefaults,
    response: z.object({
      data: z.array(RoomSchema),
      count: z.number().int(),
      total: z.number().int(),
      page: z.number().int(),
      pageCount: z.number().int(),
    }),
    handler: async ({ query }) => {
      const { rooms: found, total } = await rooms.listRooms({
        listing: RoomListing.ROOM_LISTING_ALL,
        limit: query.limit,
        offset: query.offset,
        providers: [],
        discordGuildId: '',
        rooms: [],
        userUuid: '',
        includePrivate: false,
        admin: true,
      });
      return {
        data: found.map(roomJson),
        count: found.length,
        total,
        page: Math.floor(query.offset / query.limit) + 1,
        pageCount: Math.ceil(total / query.limit),
      };
    },
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/admin/rooms/{id}`,
    summary: 'A room by its numeric id (admins)',
    tags,
    params: IdParams,
    errors: [403, 404],
    response: RoomSchema,
    handler: async ({ params }) => roomJson((await rooms.getRoom({ room: RoomRef.fromPartial({ id: params.id }), admin: true })).room),
  });
  route(deps, {
    method: 'patch',
    path: `${BASE}/rooms/admin/{id}`,
    summary: 'Changes any setting of a room by its numeric id, promotion included (global roles only)',
    tags,
    params: IdParams,
    body: UpdateRoomSchema.extend(PromoteRoomSchema.partial().shape),
    errors: [403, 404, 409],
    response: RoomSchema,
    handler: async ({ params, body }) =>
      roomJson(
        (await rooms.updateRoom({ room: RoomRef.fromPartial({ id: params.id }), settings: settingsMessage(body), admin: true })).room,
      ),
  });
  const GuestPassword = z.object({ slug: z.string().min(1).max(64) });
  route(deps, {
    method: 'post',
    path: `${BASE}/rooms/admin/guest-password`,
    summary: "Sets a room's guest password: guests may join a password-protected room with it (global roles only)",
    tags,
    body: GuestPassword.extend({ guestPassword: RoomSettingsFields.guestPassword.options[0] }),
    errors: [403, 404],
    response: RoomSchema,
    handler: async ({ body }) =>
      roomJson(
        (
          await rooms.updateRoom({
            room: roomRef(body.slug),
            settings: settingsMessage({ guestPassword: body.guestPassword }),
            admin: true,
          })
        ).room,
      ),
  });
  route(deps, {
    method: 'delete',
    path: `${BASE}/rooms/admin/guest-password`,
    summary: "Removes a room's guest password (global roles only)",
    tags,
    body: GuestPassword,
    errors: [403, 404],
    response: RoomSchema,
    handler: async ({ body }) =>
      roomJson(
        (await rooms.updateRoom({ room: roomRef(body.slug), settings: settingsMessage({ guestPassword: null }), admin: true })).room,
      ),
  });
}
