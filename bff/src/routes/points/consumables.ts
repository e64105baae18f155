import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { ConsumableClient } from './clients.js';
import {
  ConsumableCreateSchema,
  ConsumableListQuery,
  ConsumablePatchSchema,
  ConsumablePurchaseBodySchema,
  ConsumablePurchaseSchema,
  ConsumableSchema,
  CountSchema,
} from './shop-schemas.js';
import { consumableJson, purchaseJson } from './shop-views.js';

const BASE = '/api/merch-service/api/v1/consumables';
const Id = z.object({ id: z.uuid() });

/**
 * Consumables (spec 000: /api/v1/consumables, /count, /{id}) and their
 * purchase (/api/v1/consumable-purchases). Admins write; anyone signed in
 * reads and buys. Files (/consumables/files) are not built yet
 * (services/points/README.md).
 */
export function consumableRoutes(deps: RouteDeps, consumables: ConsumableClient): void {
  const tags = ['consumables'];

  route(deps, {
    method: 'get',
    path: BASE,
    summary: 'Consumables, newest first unless orderBy says otherwise (pages of 32)',
    tags,
    query: ConsumableListQuery,
    response: z.array(ConsumableSchema),
    handler: async ({ query }) =>
      (
        await consumables.listConsumables({
          ids: query.id ?? [],
          createdBefore: query.createdBefore ? new Date(query.createdBefore) : undefined,
          orderBy: query.orderBy,
          offset: query.offset,
          limit: query.limit,
        })
      ).consumables.map(consumableJson),
  });

  route(deps, {
    method: 'post',
    path: BASE,
    summary: 'Creates a consumable (admins)',
    tags,
    status: 201,
    body: ConsumableCreateSchema,
    response: ConsumableSchema,
    errors: [403],
    handler: async ({ body }) =>
      consumableJson(
        (
          await consumables.createConsumable({
            name: body.name,
            description: body.description ?? '',
            tokenCost: body.tokenCost,
            displayType: body.displayType,
          })
        ).consumable,
      ),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/count`,
    summary: 'How many consumables there are',
    tags,
    response: CountSchema,
    handler: async () => ({ count: (await consumables.countConsumables({})).count }),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/{id}`,
    summary: 'One consumable',
    tags,
    params: Id,
    response: ConsumableSchema,
    errors: [404],
    handler: async ({ params }) => consumableJson((await consumables.getConsumable({ id: params.id })).consumable),
  });

  route(deps, {
    method: 'patch',
    path: `${BASE}/{id}`,
    summary: 'Changes a consumable (admins); fields left out stay',
    tags,
    params: Id,
    body: ConsumablePatchSchema,
    response: ConsumableSchema,
    errors: [403, 404],
    handler: async ({ params, body }) => consumableJson((await consumables.patchConsumable({ id: params.id, ...body })).consumable),
  });

  route(deps, {
    method: 'delete',
    path: `${BASE}/{id}`,
    summary: 'Deletes a consumable (admins): it leaves every list; its purchases still name it',
    tags,
    params: Id,
    response: z.object({}).openapi('ConsumableDeleted'),
    errors: [403, 404],
    handler: async ({ params }) => {
      await consumables.deleteConsumable({ id: params.id });
      return {};
    },
  });

  route(deps, {
    method: 'post',
    path: '/api/merch-service/api/v1/consumable-purchases',
    summary:
      "Buys a consumable with the caller's tokens: its tokenCost is held and committed in one ledger transaction; answers lastTokenBalance. 402 TOKEN_BALANCE_SHORT when short; 404 TOKEN_ACCOUNT_MISSING when the caller has no token account (or the consumable is missing); 409 when balanceUnmodifiedSince is older than the account's last change (nothing is charged) or the idempotencyKey was used for another request",
    tags,
    status: 201,
    body: ConsumablePurchaseBodySchema,
    response: ConsumablePurchaseSchema,
    errors: [402, 403, 404, 409],
    handler: async ({ body }) =>
      purchaseJson(
        (
          await consumables.purchaseConsumable({
            roomUuid: body.roomUuid,
            consumableId: body.consumableId,
            accountId: body.accountId ?? '',
            balanceUnmodifiedSince: body.balanceUnmodifiedSince ? new Date(body.balanceUnmodifiedSince) : undefined,
            idempotencyKey: body.idempotencyKey,
          })
        ).purchase,
      ),
  });
}
