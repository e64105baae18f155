import type { SessionsServiceClient } from '@spinroom/contracts/user/v1/sessions';
import type { PromiseClient } from '@spinroom/platform/core';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';

const BASE = '/api/user-service';

/** Sessions that end (logout, Spinroom's own path: the spec has none) and bots (../shared/ORIGINAL-API.md). */
export function sessionsRoutes(deps: RouteDeps, sessions: PromiseClient<SessionsServiceClient>): void {
  route(deps, {
    method: 'post',
    path: `${BASE}/auth/logout`,
    summary: "Sign out everywhere: every token of the caller's issued until now is refused (not in the spec; Spinroom's)",
    tags: ['auth'],
    response: z.object({}).openapi('LoggedOut'),
    errors: [403],
    handler: async () => {
      await sessions.logout({});
      return {};
    },
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/users/sign-up-bot`,
    summary: "Create the caller's bot (one per user): a user whose token has role bot",
    tags: ['users'],
    status: 201,
    body: z
      .object({
        botNickName: z.string().max(200),
        avatarId: z.string().max(200),
        /** Hex, with or without `#` (the original's bots send it without). */
        color: z.string().max(20),
      })
      .openapi('SignUpBot'),
    response: z.object({ id: z.number().int(), uuid: z.uuid() }).openapi('BotCreated'),
    errors: [403],
    handler: async ({ body }) => {
      const bot = await sessions.signUpBot(body);
      return { id: bot.botId, uuid: bot.botUuid };
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/users/bot-token`,
    summary: "A token for the caller's bot (role bot, sub the bot's uuid)",
    tags: ['users'],
    response: z.object({ accessToken: z.string(), codeSyncNewUser: z.string() }).openapi('BotToken'),
    errors: [403, 404],
    handler: async () => sessions.getBotToken({}),
  });
}
