import { roomInfoRoutes } from './info.js';
import type { RouteDeps } from '../../http/route.js';
import { roomAdminRoutes } from './admin.js';
import type { RoomClient, RoomClients } from './clients.js';
import { communityRoutes } from './communities.js';
import { eventRoutes } from './events.js';
import { roomFavoriteRoutes } from './room-favorites.js';
import { roomUserRoleRoutes } from './room-user-roles.js';
import { roomRoutes } from './rooms.js';

export type { RoomClient, RoomClients };

/** Every /api/room-service path; admin paths first, as /rooms/admin/... would otherwise meet /rooms/{slug}/... */
export function roomServiceRoutes(deps: RouteDeps, rooms: RoomClients): void {
  roomAdminRoutes(deps, rooms);
  communityRoutes(deps, rooms);
  eventRoutes(deps, rooms);
  roomFavoriteRoutes(deps, rooms);
  roomUserRoleRoutes(deps, rooms);
  roomRoutes(deps, rooms);
  roomInfoRoutes(deps, rooms);
}
