import type {
  ConsumablePurchase as ConsumablePurchaseMessage,
  ConsumableServiceServer,
  Consumable as ConsumableMessage,
  TokenBundle as TokenBundleMessage,
  TokenBundleServiceServer,
} from '@spinroom/contracts/points/v1/shop';
import type { CallContext, createUnaryFactory } from '@spinroom/platform';
import type { Consumable, ConsumableOrder, ConsumablePurchase, Consumables, DisplayType } from '../domain/consumables.js';
import type { TokenBundle, TokenBundles } from '../domain/token-bundles.js';
import type { Actor } from '../domain/tokens.js';

const actorOf = (context: CallContext): Actor => ({
  userUuid: context.caller.userUuid,
  role: context.caller.role,
  kind: context.caller.kind,
});

/** A page of a list: 32 by default (spec 002's page of consumables and bundles), at most 100. */
const page = (request: { offset: number; limit: number }) => ({
  offset: Math.max(request.offset, 0),
  limit: Math.min(Math.max(request.limit || 32, 1), 100),
});

export const consumableMessage = (consumable: Consumable): ConsumableMessage => ({ ...consumable });

export const purchaseMessage = (purchase: ConsumablePurchase): ConsumablePurchaseMessage => ({
  ...purchase,
  balanceUnmodifiedSince: purchase.balanceUnmodifiedSince ?? undefined,
});

export const bundleMessage = (bundle: TokenBundle): TokenBundleMessage => ({ ...bundle });

/** gRPC handlers of spinroom.points.v1.ConsumableService: who calls, then the domain decides. */
export function consumableServiceHandlers(deps: {
  consumables: Consumables;
  unary: ReturnType<typeof createUnaryFactory>;
}): ConsumableServiceServer {
  const { consumables, unary } = deps;
  return {
    createConsumable: unary(async (request, context) => ({
      consumable: consumableMessage(
        await consumables.create(actorOf(context), {
          name: request.name,
          description: request.description,
          tokenCost: request.tokenCost,
          displayType: request.displayType as DisplayType,
        }),
      ),
    })),
    patchConsumable: unary(async (request, context) => ({
      consumable: consumableMessage(
        await consumables.patch(actorOf(context), request.id, {
          name: request.name,
          description: request.description,
          tokenCost: request.tokenCost,
          displayType: request.displayType as DisplayType | undefined,
        }),
      ),
    })),
    deleteConsumable: unary(async (request, context) => {
      await consumables.delete(actorOf(context), request.id);
      return {};
    }),
    getConsumable: unary(async (request) => ({ consumable: consumableMessage(await consumables.get(request.id)) })),
    listConsumables: unary(async (request) => ({
      consumables: (
        await consumables.list({
          ids: request.ids,
          createdBefore: request.createdBefore,
          orderBy: (request.orderBy || '-createdAt') as ConsumableOrder,
          ...page(request),
        })
      ).map(consumableMessage),
    })),
    countConsumables: unary(async () => ({ count: await consumables.count() })),
    purchaseConsumable: unary(async (request, context) => {
      const { purchase, replayed } = await consumables.purchase(actorOf(context), {
        roomUuid: request.roomUuid,
        consumableId: request.consumableId,
        accountId: request.accountId || undefined,
        balanceUnmodifiedSince: request.balanceUnmodifiedSince,
        idempotencyKey: request.idempotencyKey,
      });
      return { purchase: purchaseMessage(purchase), replayed };
    }),
  };
}

/** gRPC handlers of spinroom.points.v1.TokenBundleService. */
export function tokenBundleServiceHandlers(deps: {
  bundles: TokenBundles;
  unary: ReturnType<typeof createUnaryFactory>;
}): TokenBundleServiceServer {
  const { bundles, unary } = deps;
  return {
    createTokenBundle: unary(async (request, context) => ({
      bundle: bundleMessage(
        await bundles.create(actorOf(context), { name: request.name, productId: request.productId, tokens: request.tokens }),
      ),
    })),
    patchTokenBundle: unary(async (request, context) => ({
      bundle: bundleMessage(
        await bundles.patch(actorOf(context), request.id, { name: request.name, productId: request.productId, tokens: request.tokens }),
      ),
    })),
    deleteTokenBundle: unary(async (request, context) => {
      await bundles.delete(actorOf(context), request.id);
      return {};
    }),
    getTokenBundle: unary(async (request) => ({ bundle: bundleMessage(await bundles.get(request.id)) })),
    listTokenBundles: unary(async (request) => ({
      bundles: (await bundles.list({ ids: request.ids, productIds: request.productIds, ...page(request) })).map(bundleMessage),
    })),
    countTokenBundles: unary(async () => ({ count: await bundles.count() })),
  };
}
