import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import { present } from '../../http/upstream.js';
import type { UserClient } from './clients.js';
import { toProfileJson } from './profile-view.js';
import { UserProfileSchema } from './schemas.js';

/** /profile/{id}: another user's profile. */
export function profileRoutes(deps: RouteDeps, users: UserClient): void {
  route(deps, {
    method: 'get',
    path: '/api/user-service/profile/{id}',
    summary: "Another user's profile",
    tags: ['users'],
    params: z.object({ id: z.uuid() }),
    response: UserProfileSchema,
    errors: [404],
    handler: async ({ params }) => {
      const { profile } = await users.getProfile({ userUuid: params.id });
      return toProfileJson(present(profile));
    },
  });
}
