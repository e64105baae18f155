import { isAppError } from '@spinroom/platform/core';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { ChatClient } from '../chat/clients.js';
import type { UserClient } from '../user/clients.js';
import type { RoomClient } from './clients.js';
import { BASE } from './rooms.js';
import { RoomRoleSchema, SlugParams } from './schemas.js';
import { roleJson, roomRef } from './views.js';

/** Roles the room chat reads: who moderates it, and who may not write. */
const CHAT_ROLES = new Set(['owner', 'coOwner', 'moderator', 'banned', 'chatDisabled']);

/**
 * /roomUserRoles/cometchat: the room's chat group. The chat service reads room
 * roles from the room service as each message is sent, so nothing is copied:
 * `sync` answers the roles the chat acts on, `join` puts the caller in the group.
 */
export function roomChatRoutes(deps: RouteDeps, rooms: RoomClient, users: UserClient, chat: ChatClient): void {
  const tags = ['room user roles'];

  route(deps, {
    method: 'post',
    path: `${BASE}/roomUserRoles/cometchat/join/{slug}`,
    summary: "Puts the caller in the room's chat group (already in: fine)",
    tags,
    status: 201,
    params: SlugParams,
    errors: [403, 404],
    response: z.object({ groupId: z.uuid(), joined: z.literal(true) }),
    handler: async ({ params }) => {
      const { room } = await rooms.getRoom({ room: roomRef(params.slug) });
      // The chat API takes chat tokens only: trade the caller's access token for one.
      const { chatToken } = await users.issueChatToken({});
      try {
        await chat.joinGroup({ groupId: room!.uuid, onBehalfOf: '' }, { token: chatToken });
      } catch (error) {
        if (!isAppError(error) || error.status !== 417) throw error; // ERR_ALREADY_JOINED
      }
      return { groupId: room!.uuid, joined: true as const };
    },
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/roomUserRoles/cometchat/sync/{slug}`,
    summary: 'The room roles its chat acts on (moderators, bans, chat-disabled), read live by the chat service',
    tags,
    params: SlugParams,
    errors: [404],
    response: z.object({ roomUuid: z.uuid(), roomRoles: z.array(RoomRoleSchema) }),
    handler: async ({ params }) => {
      const { room } = await rooms.getRoom({ room: roomRef(params.slug) });
      const { roles } = await rooms.listRoomRoles({ room: roomRef(room!.uuid), userUuid: '' });
      return { roomUuid: room!.uuid, roomRoles: roles.map(roleJson).filter((r) => CHAT_ROLES.has(r.role)) };
    },
  });
}
