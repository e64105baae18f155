import type { PaymentServiceServer, Product as ProductMessage } from '@spinroom/contracts/payment/v1/payment';
import type { CallContext, createUnaryFactory } from '@spinroom/platform';
import type { Actor, Payments, Product } from '../domain/payments.js';

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
    createdAt: product.createdAt,
    updatedAt: product.updatedAt,
  };
}

/** gRPC handlers of spinroom.payment.v1.PaymentService: who calls, then the domain decides. */
export function paymentServiceHandlers(deps: { payments: Payments; unary: ReturnType<typeof createUnaryFactory> }): PaymentServiceServer {
  const { payments, unary } = deps;
  return {
    createProduct: unary(async (request, context) => ({
      product: productMessage(
        await payments.createProduct(actorOf(context), {
          name: request.name,
          description: request.description,
          price: request.price,
          currency: request.currency,
          tokens: request.tokens,
        }),
      ),
    })),
    listProducts: unary(async (request) => {
      const { products, total } = await payments.listProducts({
        id: request.id || undefined,
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
  };
}
