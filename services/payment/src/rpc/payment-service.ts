import type {
  PaymentServiceServer,
  Product as ProductMessage,
  Subscription as SubscriptionMessage,
} from '@spinroom/contracts/payment/v1/payment';
import type { CallContext, createUnaryFactory } from '@spinroom/platform';
import { AppError } from '@spinroom/platform';
import type { Actor, PaymentType, Payments, Product } from '../domain/payments.js';
import type { Subscription } from '../domain/subscriptions.js';

const actorOf = (context: CallContext): Actor => ({
  userUuid: context.caller.userUuid,
  role: context.caller.role,
  kind: context.caller.kind,
});

export function productMessage(product: Product): ProductMessage {
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    paymentType: product.paymentType,
    price: product.price,
    currency: product.currency,
    tokens: product.tokens,
    interval: product.interval ?? '',
    level: product.level ?? '',
    appleProductId: product.appleProductId ?? '',
    createdAt: product.createdAt,
    updatedAt: product.updatedAt,
  };
}

export function subscriptionMessage(subscription: Subscription): SubscriptionMessage {
  return {
    id: subscription.id,
    userUuid: subscription.userUuid,
    provider: subscription.provider,
    providerSubscriptionId: subscription.providerSubscriptionId,
    productId: subscription.productId ?? '',
    level: subscription.level,
    status: subscription.status,
    active: subscription.active,
    region: subscription.region,
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    startedAt: subscription.startedAt,
    currentPeriodStart: subscription.currentPeriodStart ?? undefined,
    currentPeriodEnd: subscription.currentPeriodEnd ?? undefined,
    endedAt: subscription.endedAt ?? undefined,
    updatedAt: subscription.updatedAt,
  };
}

function paymentTypeOf(value: string): PaymentType | undefined {
  if (value === '') return undefined;
  if (value === 'one_time' || value === 'recurring') return value;
  throw new AppError(400, 'paymentType must be one_time or recurring');
}

/** gRPC handlers of spinroom.payment.v1.PaymentService: who calls, then the domain decides. */
export function paymentServiceHandlers(deps: { payments: Payments; unary: ReturnType<typeof createUnaryFactory> }): PaymentServiceServer {
  const { payments, unary } = deps;
  return {
    createProduct: unary(async (request, context) => {
      const paymentType = paymentTypeOf(request.paymentType) ?? 'one_time';
      return {
        product: productMessage(
          await payments.createProduct(actorOf(context), {
            name: request.name,
            description: request.description,
            price: request.price,
            currency: request.currency,
            paymentType,
            ...(request.tokens || paymentType === 'one_time' ? { tokens: request.tokens } : {}),
            ...(request.interval ? { interval: request.interval } : {}),
            ...(request.level ? { level: request.level } : {}),
            ...(request.appleProductId ? { appleProductId: request.appleProductId } : {}),
          }),
        ),
      };
    }),
    listProducts: unary(async (request) => {
      const paymentType = paymentTypeOf(request.paymentType);
      const { products, total } = await payments.listProducts({
        id: request.id || undefined,
        ...(paymentType ? { paymentType } : {}),
        offset: Math.max(0, request.offset),
        limit: Math.min(100, Math.max(1, request.limit || 20)),
      });
      return { products: products.map(productMessage), total };
    }),
    getProduct: unary(async (request) => ({ product: productMessage(await payments.product(request.id)) })),
    updateProduct: unary(async (request, context) => ({
      product: productMessage(
        await payments.updateProduct(actorOf(context), request.id, {
          name: request.name,
          description: request.description,
          price: request.price,
          currency: request.currency,
          tokens: request.tokens,
          level: request.level,
          appleProductId: request.appleProductId,
        }),
      ),
    })),
    deleteProduct: unary(async (request, context) => {
      await payments.deleteProduct(actorOf(context), request.id);
      return {};
    }),
    createCheckoutSession: unary(async (request, context) =>
      payments.checkout(actorOf(context), { productId: request.productId, successUrl: request.successUrl, cancelUrl: request.cancelUrl }),
    ),
    // Stripe calls with no token: its signature is the authentication.
    handleStripeWebhook: unary.public(async (request) => ({
      processed: await payments.handleWebhook(Buffer.from(request.payload), request.signature),
    })),
    createSubscriptionCheckout: unary(async (request, context) =>
      payments.subscriptionCheckout(actorOf(context), {
        productId: request.productId,
        successUrl: request.successUrl,
        cancelUrl: request.cancelUrl,
      }),
    ),
    createPortalSession: unary(async (request, context) => payments.portal(actorOf(context), { returnUrl: request.returnUrl })),
    listSubscriptions: unary(async (request, context) => {
      const actor = actorOf(context);
      const { subscriptions, active } = await payments.subscriptions(actor, request.userUuid || actor.userUuid);
      return { subscriptions: subscriptions.map(subscriptionMessage), active: active ? subscriptionMessage(active) : undefined };
    }),
    countSubscriptions: unary(async (request, context) => ({
      count: await payments.countSubscriptions(actorOf(context), {
        ...(request.startDate ? { startDate: request.startDate } : {}),
        ...(request.endDate ? { endDate: request.endDate } : {}),
        ...(request.region ? { region: request.region } : {}),
        ...(request.level ? { level: request.level } : {}),
      }),
    })),
    getActiveSubscription: unary(async (request, context) => {
      const active = await payments.activeSubscription(actorOf(context), request.userUuid);
      return { level: active?.level ?? '', subscription: active ? subscriptionMessage(active) : undefined };
    }),
    // Apple calls with no token: the JWS and its certificate chain are the authentication.
    handleAppleNotification: unary.public(async (request) => ({
      processed: await payments.handleAppleNotification(request.signedPayload),
    })),
  };
}
