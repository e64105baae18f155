import { PaymentServiceClient, type Product, type Subscription } from '@spinroom/contracts/payment/v1/payment';
import { AppError, createGrpcClient, type PromiseClient } from '@spinroom/platform/core';
import express from 'express';
import { z } from 'zod';
import { MAX_OFFSET, MAX_PAGE_SIZE } from '../../http/paging.js';
import { route, type RouteDeps } from '../../http/route.js';

const INTERVALS = ['day', 'week', 'month', 'year'] as const;

export type PaymentClient = PromiseClient<PaymentServiceClient>;

export function createPaymentClient(address: string): PaymentClient {
  return createGrpcClient(PaymentServiceClient, address);
}

const BASE = '/api/payment-service';
export const STRIPE_WEBHOOK_PATH = `${BASE}/webhook/stripe`;
export const APPLE_WEBHOOK_PATH = `${BASE}/webhook/apple`;
/** The largest Stripe event this path reads (Stripe's are a few kilobytes). */
const WEBHOOK_MAX_BYTES = '256kb';

/**
 * Stripe signs the exact bytes of its events, so the webhook reads its body
 * raw (mounted before express.json).
 */
export const paymentBodyParsers = express.Router().post(STRIPE_WEBHOOK_PATH, express.raw({ type: () => true, limit: WEBHOOK_MAX_BYTES }));

const ProductSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    paymentType: z.enum(['one_time', 'recurring']).openapi({ description: 'one_time: a token bundle; recurring: a subscription plan' }),
    price: z.number().int().positive().openapi({ description: "In the currency's smallest unit (cents); recurring: per interval" }),
    currency: z.string().openapi({ description: 'ISO code, lower case (usd)' }),
    tokens: z.number().int().min(0).openapi({ description: "one_time: Spinroom's own token bundle a purchase credits; 0 for recurring" }),
    interval: z.enum(INTERVALS).nullable().openapi({ description: 'recurring: how often it is billed; null for one_time' }),
    level: z.string().nullable().openapi({ description: 'recurring: the subscription level it gives (e.g. supporter); null for one_time' }),
    appleProductId: z.string().nullable().openapi({ description: 'The App Store product sold as this product in the iOS app' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Product');

const ProductFields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000),
  price: z.number().int().min(1).max(100_000_000),
  currency: z
    .string()
    .regex(/^[a-z]{3}$/)
    .openapi({ description: 'ISO code, lower case (usd)' }),
  tokens: z.number().int().min(1).max(1_000_000_000),
  level: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/)
    .openapi({ description: 'recurring: the subscription level it gives (e.g. supporter)' }),
  appleProductId: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,200}$/)
    .openapi({ description: 'The App Store product sold as this product (App Store notifications name it)' }),
};
const ProductBody = z
  .object({
    ...ProductFields,
    description: ProductFields.description.default(''),
    currency: ProductFields.currency.default('usd'),
    paymentType: z
      .enum(['one_time', 'recurring'])
      .default('one_time')
      .openapi({ description: 'one_time (with tokens) or recurring (with interval and level, no tokens)' }),
    tokens: ProductFields.tokens.optional(),
    interval: z.enum(INTERVALS).optional().openapi({ description: 'recurring: how often it is billed' }),
    level: ProductFields.level.optional(),
    appleProductId: ProductFields.appleProductId.optional(),
  })
  .openapi('ProductCreate');
const ProductPatch = z
  .object({ ...ProductFields, appleProductId: z.union([ProductFields.appleProductId, z.literal('')]) })
  .partial()
  .openapi('ProductPatch');
const ProductListQuery = z.object({
  id: z.uuid().optional().openapi({ description: 'Just this product' }),
  offset: z.coerce.number().int().min(0).max(MAX_OFFSET).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
});
const ProductParams = z.object({ id: z.uuid() });
const PageQuery = z.object({
  offset: z.coerce.number().int().min(0).max(MAX_OFFSET).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
});
const ProductListSchema = z.object({ products: z.array(ProductSchema), total: z.number().int().min(0) }).openapi('ProductList');
const SessionSchema = z.object({ id: z.string(), url: z.string() });

const SubscriptionSchema = z
  .object({
    id: z.uuid(),
    userUuid: z.string(),
    provider: z.enum(['stripe', 'apple']),
    providerSubscriptionId: z.string().openapi({ description: "Stripe's subscription id, or Apple's originalTransactionId" }),
    productId: z.string().nullable().openapi({ description: 'The recurring product, when it is known here' }),
    level: z.string(),
    status: z.string().openapi({
      description:
        "Stripe's (active, trialing, past_due, canceled, unpaid, incomplete, incomplete_expired, paused) or Apple's (active, expired, revoked)",
    }),
    active: z.boolean().openapi({ description: 'Whether it gives its level now' }),
    region: z.string().openapi({
      description: "The subscriber's country as the provider names it (Stripe: US; Apple's storefront: USA); empty when unknown",
    }),
    cancelAtPeriodEnd: z.boolean(),
    startedAt: z.string(),
    currentPeriodStart: z.string().nullable(),
    currentPeriodEnd: z.string().nullable(),
    endedAt: z.string().nullable(),
    updatedAt: z.string(),
  })
  .openapi('Subscription');
const SubscriptionsSchema = z
  .object({
    active: SubscriptionSchema.nullable().openapi({ description: "The subscription giving the user's level now, or null" }),
    subscriptions: z.array(SubscriptionSchema).openapi({ description: 'Newest first' }),
  })
  .openapi('UserSubscriptions');
const CountQuery = z.object({
  startDate: z.iso.datetime({ offset: true }).optional().openapi({ description: 'Counted: active at some time from startDate...' }),
  endDate: z.iso.datetime({ offset: true }).optional().openapi({ description: '...to endDate' }),
  region: z.string().trim().min(1).max(8).optional().openapi({ description: 'A country as the provider names it (US, USA)' }),
  level: z.string().trim().min(1).max(32).optional(),
});
const CheckoutBody = z
  .object({
    successUrl: z.url().max(2048).openapi({ description: 'Where Stripe sends the buyer after paying' }),
    cancelUrl: z.url().max(2048).openapi({ description: 'Where Stripe sends the buyer who gives up' }),
  })
  .openapi('CheckoutRequest');

function productJson(product: Product | undefined): z.input<typeof ProductSchema> {
  if (!product) throw new Error('payment service answered without a product');
  const recurring = product.paymentType === 'recurring';
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    paymentType: recurring ? 'recurring' : 'one_time',
    price: product.price,
    currency: product.currency,
    tokens: product.tokens,
    interval: recurring ? (INTERVALS.find((interval) => interval === product.interval) ?? null) : null,
    level: recurring ? product.level : null,
    appleProductId: product.appleProductId || null,
    createdAt: (product.createdAt ?? new Date(0)).toISOString(),
    updatedAt: (product.updatedAt ?? new Date(0)).toISOString(),
  };
}

const iso = (date: Date | undefined) => (date ? date.toISOString() : null);

function subscriptionJson(subscription: Subscription): z.input<typeof SubscriptionSchema> {
  return {
    id: subscription.id,
    userUuid: subscription.userUuid,
    provider: subscription.provider === 'apple' ? 'apple' : 'stripe',
    providerSubscriptionId: subscription.providerSubscriptionId,
    productId: subscription.productId || null,
    level: subscription.level,
    status: subscription.status,
    active: subscription.active,
    region: subscription.region,
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    startedAt: (subscription.startedAt ?? new Date(0)).toISOString(),
    currentPeriodStart: iso(subscription.currentPeriodStart),
    currentPeriodEnd: iso(subscription.currentPeriodEnd),
    endedAt: iso(subscription.endedAt),
    updatedAt: (subscription.updatedAt ?? new Date(0)).toISOString(),
  };
}

/** Every client call refuses with 503 when the BFF runs without the payment service. */
function unavailable(): PaymentClient {
  return new Proxy({}, { get: () => () => Promise.reject(new AppError(503, 'Payments are not available')) }) as PaymentClient;
}

/** /api/payment-service: products, Stripe Checkout and Stripe's webhook (spec 002 "Payments"). */
export function paymentServiceRoutes(deps: RouteDeps, client: PaymentClient | undefined): void {
  const payment = client ?? unavailable();
  const tags = ['payments'];
  const products = `${BASE}/api/v1/products`;

  route(deps, {
    method: 'post',
    path: products,
    summary:
      'Creates a product (admins): one_time, naming the token bundle a purchase credits, or recurring, a subscription plan with its interval and level',
    tags,
    status: 201,
    body: ProductBody,
    response: ProductSchema,
    errors: [403, 409, 503],
    handler: async ({ body }) =>
      productJson(
        (
          await payment.createProduct({
            name: body.name,
            description: body.description,
            price: body.price,
            currency: body.currency,
            paymentType: body.paymentType,
            tokens: body.tokens ?? 0,
            interval: body.interval ?? '',
            level: body.level ?? '',
            appleProductId: body.appleProductId ?? '',
          })
        ).product,
      ),
  });

  route(deps, {
    method: 'get',
    path: products,
    summary: 'The one_time products (token bundles), newest first (or just `id`); the subscription plans are under /subscription/products',
    tags,
    query: ProductListQuery,
    response: ProductListSchema,
    errors: [503],
    handler: async ({ query }) => {
      const { products: list, total } = await payment.listProducts({
        id: query.id ?? '',
        paymentType: 'one_time',
        offset: query.offset,
        limit: query.limit,
      });
      return { products: list.map(productJson), total };
    },
  });

  route(deps, {
    method: 'get',
    path: `${products}/{id}`,
    summary: 'One product',
    tags,
    params: ProductParams,
    response: ProductSchema,
    errors: [404, 503],
    handler: async ({ params }) => productJson((await payment.getProduct({ id: params.id })).product),
  });

  route(deps, {
    method: 'patch',
    path: `${products}/{id}`,
    summary:
      "Changes a product's name, description, price, currency, tokens (one_time), level (recurring) or appleProductId ('' for none) (admins)",
    tags,
    params: ProductParams,
    body: ProductPatch,
    response: ProductSchema,
    errors: [403, 404, 409, 503],
    handler: async ({ params, body }) => productJson((await payment.updateProduct({ id: params.id, ...body })).product),
  });

  route(deps, {
    method: 'delete',
    path: `${products}/{id}`,
    summary: 'Deletes a product (admins)',
    tags,
    params: ProductParams,
    response: z.object({}),
    errors: [403, 404, 503],
    handler: async ({ params }) => {
      await payment.deleteProduct({ id: params.id });
      return {};
    },
  });

  route(deps, {
    method: 'post',
    path: `${products}/{id}/checkout`,
    summary:
      "Buys a product: a Stripe Checkout Session for the caller (open its url); the tokens are credited when Stripe's webhook says it was paid",
    tags,
    status: 201,
    params: ProductParams,
    body: CheckoutBody,
    response: SessionSchema.openapi('CheckoutSession'),
    errors: [403, 404, 503],
    handler: async ({ params, body }) =>
      payment.createCheckoutSession({ productId: params.id, successUrl: body.successUrl, cancelUrl: body.cancelUrl }),
  });

  route(deps, {
    method: 'post',
    path: STRIPE_WEBHOOK_PATH,
    summary:
      "Stripe's webhook: events signed with Stripe's signature scheme (Stripe-Signature), each handled once; a paid checkout.session.completed credits the product's tokens",
    tags,
    auth: 'public',
    rawBody: {
      contentType: 'application/json',
      schema: z.looseObject({ id: z.string(), type: z.string() }).openapi('StripeEvent'),
    },
    response: z.object({ received: z.literal(true), processed: z.boolean() }).openapi('StripeEventReceived'),
    errors: [413, 503],
    handler: async ({ req }) => {
      const payload = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const { processed } = await payment.handleStripeWebhook({ payload, signature: String(req.headers['stripe-signature'] ?? '') });
      return { received: true as const, processed };
    },
  });

  const subscription = `${BASE}/subscription`;

  route(deps, {
    method: 'get',
    path: `${subscription}/products`,
    summary: 'The subscription plans (recurring products), newest first',
    tags,
    query: PageQuery,
    response: ProductListSchema,
    errors: [503],
    handler: async ({ query }) => {
      const { products: list, total } = await payment.listProducts({
        id: '',
        paymentType: 'recurring',
        offset: query.offset,
        limit: query.limit,
      });
      return { products: list.map(productJson), total };
    },
  });

  route(deps, {
    method: 'post',
    path: `${subscription}/checkout/{id}`,
    summary:
      "Subscribes to a plan: a Stripe Checkout Session in subscription mode for the caller (open its url); the subscription is kept from Stripe's events. 409 while the caller has an active subscription",
    tags,
    status: 201,
    params: ProductParams,
    body: CheckoutBody,
    response: SessionSchema.openapi('SubscriptionCheckoutSession'),
    errors: [403, 404, 409, 503],
    handler: async ({ params, body }) =>
      payment.createSubscriptionCheckout({ productId: params.id, successUrl: body.successUrl, cancelUrl: body.cancelUrl }),
  });

  route(deps, {
    method: 'post',
    path: `${subscription}/portal`,
    summary:
      "Opens Stripe's billing portal for the caller's customer (change, cancel, invoices); 404 before their first subscription checkout",
    tags,
    status: 201,
    body: z
      .object({ returnUrl: z.url().max(2048).openapi({ description: 'Where the portal sends the customer back' }) })
      .openapi('PortalRequest'),
    response: SessionSchema.openapi('PortalSession'),
    errors: [403, 404, 503],
    handler: async ({ body }) => payment.createPortalSession({ returnUrl: body.returnUrl }),
  });

  route(deps, {
    method: 'get',
    path: subscription,
    summary: "The caller's subscriptions (Stripe and Apple), newest first, and the active one",
    tags,
    response: SubscriptionsSchema,
    errors: [503],
    handler: async () => {
      const { subscriptions, active } = await payment.listSubscriptions({ userUuid: '' });
      return { active: active ? subscriptionJson(active) : null, subscriptions: subscriptions.map(subscriptionJson) };
    },
  });

  route(deps, {
    method: 'get',
    path: `${subscription}/count`,
    summary: 'How many subscriptions were active at some time between startDate and endDate, of a region and level (admins)',
    tags,
    query: CountQuery,
    response: z.object({ count: z.number().int().min(0) }).openapi('SubscriptionCount'),
    errors: [403, 503],
    handler: async ({ query }) =>
      payment.countSubscriptions({
        startDate: query.startDate ? new Date(query.startDate) : undefined,
        endDate: query.endDate ? new Date(query.endDate) : undefined,
        region: query.region ?? '',
        level: query.level ?? '',
      }),
  });

  route(deps, {
    method: 'get',
    path: `${subscription}/user/{id}`,
    summary: "A user's subscriptions, newest first, and the active one (the user themself, admins and services)",
    tags,
    params: z.object({ id: z.uuid() }),
    response: SubscriptionsSchema,
    errors: [403, 503],
    handler: async ({ params }) => {
      const { subscriptions, active } = await payment.listSubscriptions({ userUuid: params.id });
      return { active: active ? subscriptionJson(active) : null, subscriptions: subscriptions.map(subscriptionJson) };
    },
  });

  route(deps, {
    method: 'post',
    path: APPLE_WEBHOOK_PATH,
    summary:
      "App Store Server Notifications V2: signedPayload is a JWS whose x5c chain must lead to Apple's root and whose ES256 signature must hold; each notification handled once (notificationUUID): subscriptions follow SUBSCRIBED, DID_RENEW, DID_CHANGE_RENEWAL_STATUS, EXPIRED, REFUND; ONE_TIME_CHARGE credits a token product",
    tags,
    auth: 'public',
    body: z.object({ signedPayload: z.string().min(1).max(100_000) }).openapi('AppleNotification'),
    response: z.object({ received: z.literal(true), processed: z.boolean() }).openapi('AppleNotificationReceived'),
    errors: [503],
    handler: async ({ body }) => {
      const { processed } = await payment.handleAppleNotification({ signedPayload: body.signedPayload });
      return { received: true as const, processed };
    },
  });
}
