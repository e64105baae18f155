import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { TokenClient } from './clients.js';
import { TokenAccountSchema } from './schemas.js';
import { tokenAccountJson } from './views.js';

const BASE = '/api/merch-service/api/v1/token-accounts';

/** Token accounts (spec 000: POST /api/v1/token-accounts, GET /self and /{accountId}). */
export function tokenAccountRoutes(deps: RouteDeps, tokens: TokenClient): void {
  const tags = ['tokens'];

  route(deps, {
    method: 'post',
    path: BASE,
    summary: "Creates the caller's token account, or answers the one there is (every user gets one at sign-up); guests have none (403)",
    tags,
    status: 201,
    response: TokenAccountSchema,
    errors: [403],
    handler: async () => tokenAccountJson((await tokens.createTokenAccount({ userUuid: '' })).account),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/self`,
    summary: "The caller's token account: its balance (available), held tokens and totals",
    tags,
    response: TokenAccountSchema,
    errors: [404],
    handler: async () => tokenAccountJson((await tokens.getOwnTokenAccount({})).account),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/{accountId}`,
    summary: 'One token account: its owner, admins and services',
    tags,
    params: z.object({ accountId: z.uuid() }),
    response: TokenAccountSchema,
    errors: [403, 404],
    handler: async ({ params }) => tokenAccountJson((await tokens.getTokenAccount({ accountId: params.accountId })).account),
  });

  route(deps, {
    method: 'patch',
    path: `${BASE}/{accountId}`,
    summary:
      "Spinroom's own: disables or enables a token account (admins). A disabled account takes no credit and no hold; its open holds may still end",
    tags,
    params: z.object({ accountId: z.uuid() }),
    body: z.object({ status: z.enum(['active', 'disabled']) }).openapi('TokenAccountStatus'),
    response: TokenAccountSchema,
    errors: [403, 404],
    handler: async ({ params, body }) =>
      tokenAccountJson((await tokens.setTokenAccountStatus({ accountId: params.accountId, status: body.status })).account),
  });
}
