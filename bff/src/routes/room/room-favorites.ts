import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { RoomClient } from './clients.js';
import { BASE } from './rooms.js';
import { EmptySchema, RoomFavoriteSchema, UserUuidSchema } from './schemas.js';
import { favoriteJson } from './views.js';
import { SerialId } from '../../http/ids.js';

/** /api/v1/room-favorites: a user's favourite rooms (not for guests). */
export function roomFavoriteRoutes(deps: RouteDeps, rooms: RoomClient): void {
  const tags = ['room favorites'];
  const path = `${BASE}/api/v1/room-favorites`;
  route(deps, {
    method: 'post',
    path,
    summary: "Adds a room to the caller's favourites (adding it twice answers the same favourite)",
    tags,
    status: 201,
    body: z.object({ roomUuid: z.uuid() }),
    errors: [403, 404],
    response: RoomFavoriteSchema,
    handler: async ({ body }) => favoriteJson((await rooms.addRoomFavorite({ roomUuid: body.roomUuid })).favorite!),
  });
  route(deps, {
    method: 'get',
    path,
    summary: "A user's favourites (the caller's by default), newest first; roomUuidIn narrows to some rooms",
    tags,
    errors: [403],
    query: z.object({
      limit: z.coerce.number().int().min(1).max(100).default(50),
      roomUuidIn: z.union([z.string(), z.array(z.string())]).optional(),
      userUuid: UserUuidSchema.optional(),
    }),
    response: z.array(RoomFavoriteSchema),
    handler: async ({ query }) => {
      const roomUuidIn = [query.roomUuidIn ?? []]
        .flat()
        .flatMap((v) => v.split(','))
        .filter(Boolean);
      const { favorites } = await rooms.listRoomFavorites({ limit: query.limit, roomUuidIn, userUuid: query.userUuid ?? '' });
      return favorites.map(favoriteJson);
    },
  });
  route(deps, {
    method: 'delete',
    path: `${path}/{id}`,
    summary: "Removes one of the caller's favourites",
    tags,
    params: z.object({ id: SerialId }),
    errors: [404],
    response: EmptySchema,
    handler: async ({ params }) => {
      await rooms.removeRoomFavorite({ id: params.id });
      return {};
    },
  });
}
