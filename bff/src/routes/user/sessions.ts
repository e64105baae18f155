import type { SessionsServiceClient } from '@spinroom/contracts/user/v1/sessions';
import type { PromiseClient } from '@spinroom/platform/core';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';

const BASE = '/api/user-service';

/** Sessions that end: logout (Spinroom's own path: the spec has none). */
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
}
