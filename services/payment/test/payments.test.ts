// The payment service's domain on PostgreSQL against stripe-mock, Stripe's own
// mock API server (deploy/tools/install.sh stripe-mock): products, a checkout
// that makes a real Checkout Session request, and the webhook's signature and
// once-per-event crediting. test/e2e/payment.test.ts does it through the BFF
// with the points service crediting for real.
import { randomUUID } from 'node:crypto';
import { dropDatabase, openServiceDatabase, type MikroORM } from '@spinroom/platform';
import { outcome, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeMock, type StripeMock } from '../../../test/support/stripe-mock.js';
import { paymentDatabase } from '../src/db/database.js';
import { Payments, STRIPE_UNAVAILABLE, type Actor, type CreditTokens } from '../src/domain/payments.js';
import { createStripe, webhookVerifier } from '../src/stripe.js';

const ADMIN: Actor = { userUuid: randomUUID(), role: 'admin', kind: 'user' };
const buyer = (): Actor => ({ userUuid: randomUUID(), role: 'user', kind: 'user' });
const SECRET = 'whsec_payment_service_test';
const URLS = { successUrl: 'https://spinroom.example/paid', cancelUrl: 'https://spinroom.example/shop' };

describe('the payment service on PostgreSQL and stripe-mock', () => {
  const databaseUrl = uniqueDatabaseUrl('payment_service');
  let orm: MikroORM;
  let stripeMock: StripeMock;
  let payments: Payments;
  const credits: Parameters<CreditTokens>[0][] = [];

  beforeAll(async () => {
    stripeMock = await startStripeMock();
    orm = await openServiceDatabase('payment', databaseUrl, paymentDatabase);
    payments = new Payments(orm, {
      stripe: createStripe('sk_test_spinroom', stripeMock.apiBase),
      webhookSecret: SECRET,
      async credit(request) {
        // As slow as a real call, so concurrent deliveries overlap.
        await new Promise((resolve) => setTimeout(resolve, 50));
        credits.push(request);
      },
    });
  }, 60_000);
  afterAll(async () => {
    await orm?.close();
    await dropDatabase(databaseUrl);
    await stripeMock?.stop();
  });

  it('creates a Checkout Session on stripe-mock for a product, and refuses what it cannot sell', async () => {
    const product = await payments.createProduct(ADMIN, {
      name: 'Stack of 100',
      description: '',
      price: 499,
      currency: 'usd',
      tokens: 100,
    });
    const session = await payments.checkout(buyer(), { productId: product.id, ...URLS });
    expect(session.id).toMatch(/^cs_/);
    expect(session.url).toMatch(/^https:\/\//);

    expect(await outcome(payments.checkout(buyer(), { productId: randomUUID(), ...URLS }))).toBe('404 Product not found');
    expect(await outcome(payments.checkout({ userUuid: 'guest', role: 'guest', kind: 'guest' }, { productId: product.id, ...URLS }))).toBe(
      '403 Sign in to buy tokens',
    );
    expect(await outcome(payments.createProduct(buyer(), { name: 'x', description: '', price: 1, currency: 'usd', tokens: 1 }))).toMatch(
      /^403/,
    );
    expect(await outcome(payments.createProduct(ADMIN, { name: 'x', description: '', price: 1, currency: 'usd', tokens: 0 }))).toMatch(
      /^400/,
    );

    // Without a secret key the product still reads, but checkout answers 503 with a clear message.
    const keyless = new Payments(orm, { credit: async () => {} });
    expect((await keyless.product(product.id)).tokens).toBe(100);
    expect(await outcome(keyless.checkout(buyer(), { productId: product.id, ...URLS }))).toBe(`503 ${STRIPE_UNAVAILABLE}`);
  });

  it('credits a signed checkout.session.completed once, even delivered three times at once, and refuses a bad signature', async () => {
    const userUuid = randomUUID();
    const eventId = `evt_${randomUUID()}`;
    const payload = Buffer.from(
      JSON.stringify({
        id: eventId,
        object: 'event',
        type: 'checkout.session.completed',
        data: {
          object: {
            id: 'cs_test_1',
            object: 'checkout.session',
            mode: 'payment',
            payment_status: 'paid',
            client_reference_id: userUuid,
            metadata: { userUuid, productId: randomUUID(), tokens: '300' },
          },
        },
      }),
    );
    const sign = (secret = SECRET) => webhookVerifier.webhooks.generateTestHeaderString({ payload: payload.toString(), secret });
    const before = credits.length;
    const handled = await Promise.all([1, 2, 3].map(() => payments.handleWebhook(payload, sign())));
    expect(handled.filter(Boolean)).toHaveLength(1);
    expect(credits.slice(before)).toEqual([
      { userUuid, amount: 300, reason: 'purchase', reference: 'stripe:cs_test_1', idempotencyKey: `stripe-event:${eventId}` },
    ]);
    expect(await payments.handleWebhook(payload, sign())).toBe(false);

    expect(await outcome(payments.handleWebhook(payload, sign('whsec_someone_else')))).toMatch(/^400 /);
    expect(await outcome(payments.handleWebhook(payload, ''))).toMatch(/^400 /);
    expect(credits.length).toBe(before + 1);
  });

  it("keeps no record of an event whose credit failed, so Stripe's retry credits it", async () => {
    let fail = true;
    const seen: string[] = [];
    const flaky = new Payments(orm, {
      webhookSecret: SECRET,
      async credit(request) {
        if (fail) throw new Error('points service unavailable');
        seen.push(request.idempotencyKey);
      },
    });
    const userUuid = randomUUID();
    const payload = JSON.stringify({
      id: `evt_${randomUUID()}`,
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { id: 'cs_test_2', mode: 'payment', payment_status: 'paid', metadata: { userUuid, tokens: '5' } } },
    });
    const signature = () => webhookVerifier.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    await expect(flaky.handleWebhook(Buffer.from(payload), signature())).rejects.toThrow('points service unavailable');
    fail = false;
    expect(await flaky.handleWebhook(Buffer.from(payload), signature())).toBe(true);
    expect(seen).toHaveLength(1);
  });
});
