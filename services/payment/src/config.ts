import { serviceConfig, type ConfigOf } from '@spinroom/platform/core';
import { z } from 'zod';

const optional = z
  .string()
  .optional()
  .transform((value) => (value ? value : undefined));

/**
 * The payment service's environment, read once at start-up: the base and what
 * its entry in the list of services needs (its database; Redis and the user
 * service, which every token verifier needs; the points service, which it
 * credits), then Stripe's and Apple's settings. Without STRIPE_SECRET_KEY the paths that
 * need Stripe answer 503; without STRIPE_WEBHOOK_SECRET the webhook does, and
 * /webhook/apple without an Apple root certificate.
 */
export const paymentServiceConfig = serviceConfig('payment', {
  /** Stripe's secret key (sk_test_... with stripe-mock). */
  STRIPE_SECRET_KEY: optional,
  /** The webhook endpoint's signing secret (whsec_...). */
  STRIPE_WEBHOOK_SECRET: optional,
  /** Where Stripe's API is: https://api.stripe.com by default, stripe-mock's http://127.0.0.1:12111 in tests and `npm start`. */
  STRIPE_API_BASE: z.url().optional(),
  /** The Apple root certificate (PEM) App Store notifications must chain to (Apple Root CA - G3); without it /webhook/apple answers 503. */
  APPLE_ROOT_CERT_PEM: optional,
  /** ...or the file holding it (PEM). */
  APPLE_ROOT_CERT_FILE: optional,
  /** When set, notifications of another app (data.bundleId) are refused. */
  APPLE_BUNDLE_ID: optional,
});

export type PaymentServiceConfig = ConfigOf<typeof paymentServiceConfig>;
