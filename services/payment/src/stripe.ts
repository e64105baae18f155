import Stripe from 'stripe';

/**
 * Stripe's client for a secret key, talking to `apiBase` when given (stripe-mock
 * in tests and `npm start`, e.g. http://127.0.0.1:12111) and to api.stripe.com
 * otherwise.
 */
export function createStripe(secretKey: string, apiBase?: string): Stripe {
  if (!apiBase) return new Stripe(secretKey, { maxNetworkRetries: 2 });
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(secretKey, {
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
    maxNetworkRetries: 2,
  });
}

/** Stripe's signature scheme needs no key of its own: this client only verifies webhooks. */
export const webhookVerifier = new Stripe('sk_webhook_verifier_only');

export type { Stripe };
