import { z } from 'zod';
import { clientAddress, type BffLimits } from '../../http/limits.js';
import { route, type RouteDeps } from '../../http/route.js';
import { present } from '../../http/upstream.js';
import type { UserClient } from './clients.js';
import { toProfileJson } from './profile-view.js';
import { AccessGrantSchema, ProfileUpdateSchema, SignUpSchema, UserProfileSchema } from './schemas.js';

const BASE = '/api/user-service/users';

/** /users: sign-up and the caller's own profile; batches of other profiles. */
export function usersRoutes(deps: RouteDeps, users: UserClient, limits: Pick<BffLimits, 'signUps'>): void {
  route(deps, {
    method: 'post',
    path: `${BASE}/sign-up`,
    summary: 'Create an account',
    tags: ['users'],
    auth: 'public',
    status: 201,
    body: SignUpSchema,
    response: AccessGrantSchema,
    errors: [403, 429, 503],
    handler: async ({ body, req }) => {
      await limits.signUps.consume(clientAddress(req));
      const { grant } = await users.signUp({ email: body.email ?? '', password: body.password ?? '', nickname: body.nickname });
      return present(grant);
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/profile`,
    summary: "The caller's own profile",
    tags: ['users'],
    response: UserProfileSchema,
    errors: [404],
    handler: async () => toProfileJson(present((await users.getOwnProfile({})).profile)),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/profile`,
    summary: "Partly update the caller's own profile",
    tags: ['users'],
    body: ProfileUpdateSchema,
    response: UserProfileSchema,
    errors: [403, 404],
    handler: async ({ body }) => {
      const { song, ...rest } = body;
      // null clears a text field; the user service takes "" for that.
      const fields = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, v === null ? '' : v]));
      const { profile } = await users.updateOwnProfile({ ...fields, song: song ?? undefined, clearSong: song === null });
      return toProfileJson(present(profile));
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/profiles`,
    summary: 'Profiles of several users (`users` repeated, at most 150); unknown ones are left out',
    tags: ['users'],
    query: z.object({
      users: z
        .union([z.string(), z.array(z.string())])
        .transform((v) => (Array.isArray(v) ? v : [v]))
        .pipe(z.array(z.uuid()).max(150)),
    }),
    response: z.array(z.object({ userProfile: UserProfileSchema })),
    handler: async ({ query }) => {
      const { profiles } = await users.batchGetProfiles({ userUuids: query.users });
      return profiles.map((profile) => ({ userProfile: toProfileJson(profile) }));
    },
  });
}
