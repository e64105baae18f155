import { z } from 'zod';
import '../../http/route.js'; // extends zod with .openapi()
import { MAX_OFFSET } from '../../http/paging.js';
import { MAX_TOKEN_AMOUNT } from './schemas.js';

/** Spec 002: consumable and token-bundle pages hold 32. */
export const SHOP_PAGE_SIZE = 32;

const Cost = z.number().int().min(1).max(MAX_TOKEN_AMOUNT);
const DisplayType = z.enum(['cover', 'small']).openapi({ description: "How it shows in the room's chat" });

/** One value, several (repeated or comma-separated), or none. */
const many = (item: z.ZodType<string, string>) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(item).max(100))
    .optional();

export const ConsumableSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    tokenCost: z.number().int().positive(),
    displayType: DisplayType,
    imageUrl: z
      .string()
      .openapi({ description: "Its picture (POST /api/v1/consumables/files with its consumableId); '' until it has one" }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Consumable');

export const ConsumableCreateSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    description: z.string().max(500).optional(),
    tokenCost: Cost,
    displayType: DisplayType,
  })
  .openapi('ConsumableCreate');

export const ConsumablePatchSchema = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    description: z.string().max(500).optional(),
    tokenCost: Cost.optional(),
    displayType: DisplayType.optional(),
  })
  .openapi('ConsumablePatch');

export const ConsumableListQuery = z.object({
  id: many(z.uuid()).openapi({ description: 'Only these (repeated or comma-separated)' }),
  createdBefore: z.iso.datetime({ offset: true }).optional(),
  orderBy: z.enum(['createdAt', '-createdAt', 'tokenCost', '-tokenCost']).default('-createdAt'),
  offset: z.coerce.number().int().min(0).max(MAX_OFFSET).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(SHOP_PAGE_SIZE),
});

export const CountSchema = z.object({ count: z.number().int().min(0) }).openapi('Count');

export const ConsumablePurchaseBodySchema = z
  .object({
    roomUuid: z.uuid().openapi({ description: 'The room it is used in' }),
    consumableId: z.uuid(),
    accountId: z.uuid().optional().openapi({ description: "The paying account: the caller's own (the default)" }),
    balanceUnmodifiedSince: z.iso.datetime({ offset: true }).optional().openapi({
      description:
        "The account's updatedAt as the buyer last saw it: when the account changed after it, the purchase is refused (409) and nothing is charged",
    }),
    idempotencyKey: z
      .string()
      .regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 visible ASCII characters')
      .openapi({ description: 'New for each purchase (a UUID, say); the same body sent again answers the same purchase' }),
  })
  .openapi('ConsumablePurchaseCreate');

export const ConsumablePurchaseSchema = z
  .object({
    id: z.uuid(),
    accountId: z.uuid(),
    userUuid: z.string(),
    consumableId: z.uuid(),
    roomUuid: z.uuid(),
    tokenCost: z.number().int().positive(),
    lastTokenBalance: z.number().int().min(0).openapi({ description: "The account's available balance right after the purchase" }),
    balanceUnmodifiedSince: z.string().nullable(),
    holdId: z.uuid().openapi({ description: "The ledger's hold, committed at once" }),
    commitId: z.uuid(),
    createdAt: z.string(),
  })
  .openapi('ConsumablePurchase');

export const TokenBundleSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    productId: z.string().openapi({ description: "The payment provider's product" }),
    tokens: z.number().int().positive().openapi({ description: 'What buying it credits' }),
    thumbnail: z.string().openapi({ description: "Its picture's URL (PATCH /api/v1/token-bundles/{id}/thumbnail); '' until it has one" }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('TokenBundle');

const ProductId = z.string().trim().min(1).max(255);

export const TokenBundleCreateSchema = z
  .object({ name: z.string().trim().min(1).max(100), productId: ProductId, tokens: Cost })
  .openapi('TokenBundleCreate');

export const TokenBundlePatchSchema = z
  .object({ name: z.string().trim().min(1).max(100).optional(), productId: ProductId.optional(), tokens: Cost.optional() })
  .openapi('TokenBundlePatch');

export const TokenBundleListQuery = z.object({
  id: many(z.uuid()).openapi({ description: 'Only these (repeated or comma-separated)' }),
  productId: many(ProductId).openapi({ description: 'Only the bundles of these products' }),
  offset: z.coerce.number().int().min(0).max(MAX_OFFSET).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(SHOP_PAGE_SIZE),
});
