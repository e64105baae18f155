import { PaymentServiceClient, type Product } from '@spinroom/contracts/payment/v1/payment';
import { AppError, createGrpcClient, type PromiseClient } from '@spinroom/platform/core';
import express from 'express';
import { z } from 'zod';
import { MAX_OFFSET, MAX_PAGE_SIZE } from '../../http/paging.js';
import { route, type RouteDeps } from '../../http/route.js';

export type PaymentClient = PromiseClient<PaymentServiceClient>;

export function createPaymentClient(address: string): PaymentClient {
  return createGrpcClient(PaymentServiceClient, address);
}

const BASE = '/api/payment-service';
export const STRIPE_WEBHOOK_PATH = `${BASE}/webhook/stripe`;
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
    paymentType: z.enum(['one_time']),
    price: z.number().int().positive().openapi({ description: "In the currency's smallest unit (cents)" }),
    currency: z.string().openapi({ description: 'ISO code, lower case (usd)' }),
    tokens: z.number().int().positive().openapi({ description: "Spinroom's own: the token bundle a purchase credits" }),
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
};
const ProductBody = z
  .object({ ...ProductFields, description: ProductFields.description.default(''), currency: ProductFields.currency.default('usd') })
  .openapi('ProductCreate');
const ProductPatch = z.object(ProductFields).partial().openapi('ProductPatch');
const ProductListQuery = z.object({
  id: z.uuid().optional().openapi({ description: 'Just this product' }),
  offset: z.coerce.number().int().min(0).max(MAX_OFFSET).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
});
const ProductParams = z.object({ id: z.uuid() });
const CheckoutBody = z
  .object({
    successUrl: z.url().max(2048).openapi({ description: 'Where Stripe sends the buyer after paying' }),
    cancelUrl: z.url().max(2048).openapi({ description: 'Where Stripe sends the buyer who gives up' }),
  })
  .openapi('CheckoutRequest');

function productJson(product: Product | undefined): z.input<typeof ProductSchema> {
  if (!product) throw new Error('payment service answered without a product');
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    paymentType: 'one_time',
    price: product.price,
    currency: product.currency,
    tokens: product.tokens,
    createdAt: (product.createdAt ?? new Date(0)).toISOString(),
    updatedAt: (product.updatedAt ?? new Date(0)).toISOString(),
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
    summary: 'Creates a product (admins): one_time, naming the token bundle a purchase credits',
    tags,
    status: 201,
    body: ProductBody,
    response: ProductSchema,
    errors: [403, 503],
    handler: async ({ body }) => productJson((await payment.createProduct(body)).product),
  });

  route(deps, {
    method: 'get',
    path: products,
    summary: 'The products, newest first (or just `id`)',
    tags,
    query: ProductListQuery,
    response: z.object({ products: z.array(ProductSchema), total: z.number().int().min(0) }).openapi('ProductList'),
    errors: [503],
    handler: async ({ query }) => {
      const { products: list, total } = await payment.listProducts({ id: query.id ?? '', offset: query.offset, limit: query.limit });
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
    summary: "Changes a product's name, description, price, currency or tokens (admins)",
    tags,
    params: ProductParams,
    body: ProductPatch,
    response: ProductSchema,
    errors: [403, 404, 503],
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
    response: z.object({ id: z.string(), url: z.string() }).openapi('CheckoutSession'),
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
}
