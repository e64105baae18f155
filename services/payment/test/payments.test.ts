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
import { Payments, STRIPE_UNAVAILABLE, type Actor, type CreditTokens, type DebitTokens } from '../src/domain/payments.js';
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

// Refunds: the points side is a small in-memory ledger that, as DebitTokens,
// takes at most what is available and answers a repeated key with its first answer.
describe('refunds of token bundles on PostgreSQL', () => {
  const databaseUrl = uniqueDatabaseUrl('payment_refunds');
  let orm: MikroORM;
  let payments: Payments;
  const available = new Map<string, number>();
  const answers = new Map<string, { taken: number }>();
  let points = 0;
  /** Fails the next debit after it has been applied (a crash before the webhook's transaction commits). */
  let crashAfterDebit = false;

  const balance = (userUuid: string) => available.get(userUuid) ?? 0;
  const debit: DebitTokens = async (request) => {
    let answer = answers.get(request.idempotencyKey);
    if (!answer) {
      points += 1;
      answer = { taken: Math.min(request.amount, balance(request.userUuid)) };
      available.set(request.userUuid, balance(request.userUuid) - answer.taken);
      answers.set(request.idempotencyKey, answer);
    }
    if (crashAfterDebit) {
      crashAfterDebit = false;
      throw new Error('connection lost');
    }
    return answer;
  };

  beforeAll(async () => {
    orm = await openServiceDatabase('payment', databaseUrl, paymentDatabase);
    payments = new Payments(orm, {
      webhookSecret: SECRET,
      async credit(request) {
        if (!answers.has(request.idempotencyKey)) available.set(request.userUuid, balance(request.userUuid) + request.amount);
        answers.set(request.idempotencyKey, { taken: 0 });
      },
      debit,
    });
  }, 60_000);
  afterAll(async () => {
    await orm?.close();
    await dropDatabase(databaseUrl);
  });

  const deliver = (event: object) => {
    const payload = JSON.stringify(event);
    return payments.handleWebhook(Buffer.from(payload), webhookVerifier.webhooks.generateTestHeaderString({ payload, secret: SECRET }));
  };

  /** A paid checkout of a bundle of `tokens` by a new user, through its PaymentIntent. */
  async function bought(tokens: number): Promise<{ userUuid: string; paymentIntent: string }> {
    const userUuid = randomUUID();
    const paymentIntent = `pi_${randomUUID()}`;
    const handled = await deliver({
      id: `evt_${randomUUID()}`,
      object: 'event',
      type: 'checkout.session.completed',
      data: {
        object: {
          id: `cs_${randomUUID()}`,
          object: 'checkout.session',
          mode: 'payment',
          payment_status: 'paid',
          payment_intent: paymentIntent,
          metadata: { userUuid, productId: randomUUID(), tokens: String(tokens) },
        },
      },
    });
    expect(handled).toBe(true);
    expect(balance(userUuid)).toBe(tokens);
    return { userUuid, paymentIntent };
  }

  const refund = (paymentIntent: string, amount: number, amountRefunded: number, id = `evt_${randomUUID()}`) => ({
    id,
    object: 'event',
    type: 'charge.refunded',
    data: {
      object: {
        id: `ch_${paymentIntent}`,
        object: 'charge',
        payment_intent: paymentIntent,
        amount,
        amount_refunded: amountRefunded,
        refunded: amountRefunded === amount,
      },
    },
  });

  it('takes a bought bundle back on a full refund, and a redelivered refund takes nothing more', async () => {
    const { userUuid, paymentIntent } = await bought(300);
    const event = refund(paymentIntent, 499, 499);
    const handled = await Promise.all([1, 2, 3].map(() => deliver(event)));
    expect(handled.filter(Boolean)).toHaveLength(1);
    expect(balance(userUuid)).toBe(0);
    expect(await deliver(event)).toBe(false);
    // Tokens credited since (a later purchase) are not touched by the redelivery.
    available.set(userUuid, 50);
    expect(await deliver(event)).toBe(false);
    expect(balance(userUuid)).toBe(50);
    expect(await payments.refundsOf(paymentIntent)).toEqual([
      {
        eventId: event.id,
        paymentIntentId: paymentIntent,
        chargeId: `ch_${paymentIntent}`,
        tokensDue: 300,
        tokensTaken: 300,
        tokensShort: 0,
      },
    ]);
  });

  it('takes a partial refund’s share, then the rest on the refund of the rest', async () => {
    const { userUuid, paymentIntent } = await bought(100);
    expect(await deliver(refund(paymentIntent, 1000, 333))).toBe(true);
    expect(balance(userUuid)).toBe(67); // floor(100 × 333 / 1000) = 33 taken
    expect(await deliver(refund(paymentIntent, 1000, 1000))).toBe(true);
    expect(balance(userUuid)).toBe(0);
    expect((await payments.refundsOf(paymentIntent)).map((r) => [r.tokensDue, r.tokensTaken, r.tokensShort])).toEqual([
      [33, 33, 0],
      [67, 67, 0],
    ]);
  });

  it('takes only what a user who spent part has left, and records the shortfall', async () => {
    const { userUuid, paymentIntent } = await bought(100);
    available.set(userUuid, 30); // 70 spent
    expect(await deliver(refund(paymentIntent, 499, 499))).toBe(true);
    expect(balance(userUuid)).toBe(0);
    expect(await payments.refundsOf(paymentIntent)).toMatchObject([{ tokensDue: 100, tokensTaken: 30, tokensShort: 70 }]);
    const [row] = await orm.em
      .fork()
      .execute<{ refunded_tokens: string }[]>(`select "refunded_tokens" from "stripe_purchase" where "payment_intent_id" = ?`, [
        paymentIntent,
      ]);
    expect(Number(row!.refunded_tokens)).toBe(100);
  });

  it('takes nothing twice when the refund is retried after a crash, and ignores charges of no purchase made here', async () => {
    const { userUuid, paymentIntent } = await bought(40);
    const event = refund(paymentIntent, 200, 100);
    crashAfterDebit = true;
    await expect(deliver(event)).rejects.toThrow('connection lost');
    expect(balance(userUuid)).toBe(20);
    const before = points;
    expect(await deliver(event)).toBe(true);
    expect(points).toBe(before); // the same key: the first answer
    expect(balance(userUuid)).toBe(20);
    expect(await payments.refundsOf(paymentIntent)).toMatchObject([{ tokensDue: 20, tokensTaken: 20, tokensShort: 0 }]);

    expect(await deliver(refund(`pi_${randomUUID()}`, 100, 100))).toBe(false);
    expect(await outcome(deliver(refund(paymentIntent, 100, 200)))).toBe('400 The refunded charge has no valid amount and amount_refunded');
  });
});
