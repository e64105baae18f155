import { PaymentServiceService } from '@spinroom/contracts/payment/v1/payment';
import { TokenServiceClient } from '@spinroom/contracts/points/v1/tokens';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { AppError, defineService, TokenWriter } from '@spinroom/platform';
import { AppleJwsVerifier, appleRoots } from './apple.js';
import { paymentServiceConfig } from './config.js';
import { paymentDatabase } from './db/database.js';
import { Payments } from './domain/payments.js';
import { paymentServiceHandlers } from './rpc/payment-service.js';
import { createStripe } from './stripe.js';

/**
 * The gRPC server (spinroom.payment.v1.PaymentService): products, Stripe
 * Checkout, subscriptions, and Stripe's and Apple's notifications, which
 * credit bought bundles through the points service with the service's own
 * token. The service kit opens and
 * closes the rest (packages/platform/src/kit).
 */
export const paymentService = defineService('payment', {
  config: paymentServiceConfig,
  peers: { user: UserServiceClient, points: TokenServiceClient },
  database: paymentDatabase,
  async build({ config, logger, orm, peers, serviceToken, unary }, options: { now?: () => Date }) {
    if (!config.STRIPE_SECRET_KEY) logger.warn('STRIPE_SECRET_KEY is not set: checkout answers 503');
    if (!config.STRIPE_WEBHOOK_SECRET) logger.warn('STRIPE_WEBHOOK_SECRET is not set: the Stripe webhook answers 503');
    const roots = appleRoots(config);
    if (roots.length === 0) logger.warn('APPLE_ROOT_CERT_PEM / APPLE_ROOT_CERT_FILE is not set: the Apple webhook answers 503');
    // Credits and debits through the coalescing client: the notifications handled at one moment share one call.
    const writer = new TokenWriter(peers.points, () => serviceToken.token());
    const payments = new Payments(orm, {
      stripe: config.STRIPE_SECRET_KEY ? createStripe(config.STRIPE_SECRET_KEY, config.STRIPE_API_BASE) : undefined,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      apple: roots.length > 0 ? new AppleJwsVerifier(roots, options.now) : undefined,
      appleBundleId: config.APPLE_BUNDLE_ID,
      now: options.now,
      async credit(request) {
        const token = await serviceToken.token();
        // The buyer's account, made when the user-events consumer has not made it yet (idempotent).
        await peers.points.createTokenAccount({ userUuid: request.userUuid }, { token });
        await writer.credit({ accountId: '', ...request });
      },
      async debit(request) {
        try {
          const { transaction } = await writer.debit({ accountId: '', ...request });
          return { taken: Number(transaction.amount) };
        } catch (error) {
          // Nothing available (402) or no account (404): all of it is short.
          if (error instanceof AppError && (error.status === 402 || error.status === 404)) return { taken: 0 };
          throw error;
        }
      },
    });
    return {
      services: [
        {
          name: 'spinroom.payment.v1.PaymentService',
          definition: PaymentServiceService,
          implementation: paymentServiceHandlers({ payments, unary }),
        },
      ],
      async stop() {},
      expose: { payments },
    };
  },
});

export type RunningPaymentService = Awaited<ReturnType<typeof paymentService.start>>;
export const startPaymentService = paymentService.start;
