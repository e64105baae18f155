import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { RoomClient } from './clients.js';
import { BASE } from './rooms.js';

/** /info-admin: the room service's state for operators (global roles; the room service checks). */
export function roomInfoRoutes(deps: RouteDeps, rooms: RoomClient): void {
  const tags = ['info'];
  route(deps, {
    method: 'get',
    path: `${BASE}/info-admin/played-seconds`,
    summary: 'Seconds of music played in every room so far (global roles only)',
    tags,
    errors: [403],
    response: z.object({ playedSeconds: z.number().int() }),
    handler: async () => ({ playedSeconds: (await rooms.getRoomServiceInfo({})).playedSeconds }),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/info-admin/room-service-status`,
    summary: "The room service's version, uptime and live rooms (global roles only)",
    tags,
    errors: [403],
    response: z.object({
      status: z.literal('ok'),
      version: z.string(),
      startedAt: z.string(),
      uptimeSeconds: z.number().int(),
      liveRooms: z.number().int(),
    }),
    handler: async () => {
      const info = await rooms.getRoomServiceInfo({});
      const startedAt = info.startedAt ?? new Date();
      return {
        status: 'ok' as const,
        version: info.version,
        startedAt: startedAt.toISOString(),
        uptimeSeconds: Math.floor((Date.now() - startedAt.getTime()) / 1000),
        liveRooms: info.liveRooms,
      };
    },
  });
}
