import { UserKind } from '@spinroom/contracts/user/v1/user_service';
import { z } from 'zod';
import { clientAddress, type BffLimits } from '../../http/limits.js';
import { route, type RouteDeps } from '../../http/route.js';
import { present } from '../../http/upstream.js';
import type { UserClient } from './clients.js';
import { AccessGrantSchema, CredentialsSchema } from './schemas.js';

const BASE = '/api/user-service/auth';
const KIND_NAMES: Partial<Record<UserKind, 'user' | 'guest' | 'bot'>> = {
  [UserKind.USER_KIND_USER]: 'user',
  [UserKind.USER_KIND_GUEST]: 'guest',
  [UserKind.USER_KIND_BOT]: 'bot',
};

/** /auth: login, guest tokens, the session behind a token, the public key. */
export function authRoutes(deps: RouteDeps, users: UserClient, limits: Pick<BffLimits, 'loginFailures' | 'guestTokens'>): void {
  route(deps, {
    method: 'post',
    path: `${BASE}/login`,
    summary: 'Log in with email and password',
    tags: ['auth'],
    auth: 'public',
    body: CredentialsSchema,
    response: AccessGrantSchema,
    errors: [401, 429, 503],
    handler: async ({ body, req }) =>
      limits.loginFailures.attempt(clientAddress(req), async () =>
        present((await users.logIn({ email: body.email ?? '', password: body.password ?? '' })).grant),
      ),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/guest`,
    summary: 'A token for a new guest (ghost) session',
    tags: ['auth'],
    auth: 'public',
    response: AccessGrantSchema,
    errors: [429],
    handler: async ({ req }) => {
      await limits.guestTokens.consume(clientAddress(req));
      return present((await users.createGuest({})).grant);
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/session`,
    summary: 'The session behind the bearer token',
    tags: ['auth'],
    response: z.object({ userUuid: z.uuid(), kind: z.enum(['user', 'guest', 'bot']), roles: z.array(z.string()) }).openapi('Session'),
    handler: async () => {
      const session = await users.getSession({});
      return { userUuid: session.userUuid, kind: KIND_NAMES[session.kind] ?? 'user', roles: session.roles };
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/pub-key`,
    summary: 'The PEM public key that signs access tokens now (RS256), and every key a token may carry by kid (rotation)',
    tags: ['auth'],
    auth: 'public',
    response: z.object({ publicKey: z.string(), keys: z.array(z.object({ kid: z.string(), publicKey: z.string() })) }).openapi('PublicKey'),
    handler: async () => {
      const published = await users.getPublicKey({});
      return {
        publicKey: published.publicKeyPem,
        keys: published.keys.map((key) => ({ kid: key.kid, publicKey: key.publicKeyPem })),
      };
    },
  });
}
