import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { UserClient } from './clients.js';

/** /comet-chat: the token for the chat API under /chat (the original's CometChat). */
export function cometChatRoutes(deps: RouteDeps, users: UserClient): void {
  route(deps, {
    method: 'get',
    path: '/api/user-service/comet-chat/user-token',
    summary: "The caller's chat token (`authtoken` of the /chat API); guests too",
    tags: ['chat'],
    response: z.object({ cometAuthToken: z.string() }),
    errors: [403],
    handler: async () => ({ cometAuthToken: (await users.issueChatToken({})).chatToken }),
  });
}
