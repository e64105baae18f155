import type { Consumable, ConsumablePurchase, TokenBundle } from '@spinroom/contracts/points/v1/shop';
import type { z } from 'zod';
import { present } from '../../http/upstream.js';
import type { ConsumablePurchaseSchema, ConsumableSchema, TokenBundleSchema } from './shop-schemas.js';

const iso = (date: Date | undefined) => present(date).toISOString();

export function consumableJson(consumable: Consumable | undefined): z.input<typeof ConsumableSchema> {
  const c = present(consumable);
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    tokenCost: c.tokenCost,
    displayType: c.displayType as 'cover' | 'small',
    imageUrl: c.imageUrl,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
}

export function purchaseJson(purchase: ConsumablePurchase | undefined): z.input<typeof ConsumablePurchaseSchema> {
  const p = present(purchase);
  return {
    id: p.id,
    accountId: p.accountId,
    userUuid: p.userUuid,
    consumableId: p.consumableId,
    roomUuid: p.roomUuid,
    tokenCost: p.tokenCost,
    lastTokenBalance: p.lastTokenBalance,
    balanceUnmodifiedSince: p.balanceUnmodifiedSince ? p.balanceUnmodifiedSince.toISOString() : null,
    holdId: p.holdId,
    commitId: p.commitId,
    createdAt: iso(p.createdAt),
  };
}

export function tokenBundleJson(bundle: TokenBundle | undefined): z.input<typeof TokenBundleSchema> {
  const b = present(bundle);
  return {
    id: b.id,
    name: b.name,
    productId: b.productId,
    tokens: b.tokens,
    thumbnail: b.thumbnailUrl,
    createdAt: iso(b.createdAt),
    updatedAt: iso(b.updatedAt),
  };
}
