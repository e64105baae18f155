import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { TokenBundleClient } from './clients.js';
import { CountSchema, TokenBundleCreateSchema, TokenBundleListQuery, TokenBundlePatchSchema, TokenBundleSchema } from './shop-schemas.js';
import { tokenBundleJson } from './shop-views.js';

const BASE = '/api/merch-service/api/v1/token-bundles';
const Id = z.object({ id: z.uuid() });

/**
 * Token bundles (spec 000: /api/v1/token-bundles, /count, /{id}, POST /{id}
 * used as delete). Admins write; anyone signed in reads. The thumbnail upload
 * (PATCH /{id}/thumbnail) is not built yet (services/points/README.md).
 */
export function tokenBundleRoutes(deps: RouteDeps, bundles: TokenBundleClient): void {
  const tags = ['token bundles'];

  route(deps, {
    method: 'get',
    path: BASE,
    summary: 'Token bundles, fewest tokens first (pages of 32)',
    tags,
    query: TokenBundleListQuery,
    response: z.array(TokenBundleSchema),
    handler: async ({ query }) =>
      (
        await bundles.listTokenBundles({ ids: query.id ?? [], productIds: query.productId ?? [], offset: query.offset, limit: query.limit })
      ).bundles.map(tokenBundleJson),
  });

  route(deps, {
    method: 'post',
    path: BASE,
    summary: 'Creates a token bundle (admins); 409 when another bundle sells the productId',
    tags,
    status: 201,
    body: TokenBundleCreateSchema,
    response: TokenBundleSchema,
    errors: [403, 409],
    handler: async ({ body }) => tokenBundleJson((await bundles.createTokenBundle(body)).bundle),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/count`,
    summary: 'How many token bundles there are',
    tags,
    response: CountSchema,
    handler: async () => ({ count: (await bundles.countTokenBundles({})).count }),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/{id}`,
    summary: 'One token bundle',
    tags,
    params: Id,
    response: TokenBundleSchema,
    errors: [404],
    handler: async ({ params }) => tokenBundleJson((await bundles.getTokenBundle({ id: params.id })).bundle),
  });

  route(deps, {
    method: 'patch',
    path: `${BASE}/{id}`,
    summary: 'Changes a token bundle (admins); fields left out stay. 409 when another bundle sells the productId',
    tags,
    params: Id,
    body: TokenBundlePatchSchema,
    response: TokenBundleSchema,
    errors: [403, 404, 409],
    handler: async ({ params, body }) => tokenBundleJson((await bundles.patchTokenBundle({ id: params.id, ...body })).bundle),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/{id}`,
    summary: 'Deletes a token bundle (admins; spec 000 uses POST here as delete): it leaves every list',
    tags,
    params: Id,
    response: z.object({}).openapi('TokenBundleDeleted'),
    errors: [403, 404],
    handler: async ({ params }) => {
      await bundles.deleteTokenBundle({ id: params.id });
      return {};
    },
  });
}
