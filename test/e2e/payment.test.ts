// The payment service through the BFF (issue 16, Payments): products are
// written by admins only (401 without a token, 403 for others), a checkout
// makes a Stripe Checkout Session on stripe-mock (Stripe's own mock server),
// and Stripe's webhook, verified with Stripe's signature scheme, credits the
// bought bundle to the buyer's token account exactly once, even when the
// event is delivered three times at once. Subscriptions: recurring products,
// the subscription checkout and billing portal on stripe-mock, Stripe's
// subscription events and Apple's signed notifications (a certificate chain
// made in the test, its root configured as APPLE_ROOT_CERT_PEM) keeping the
// subscriber's level, which services read with GetActiveSubscription.
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { eventually } from '@spinroom/platform/testing';
import { checkoutCompletedEvent } from '../support/stripe-mock.js';
import { describe, expect, it } from 'vitest';
import { createPaymentClient } from '../../bff/src/routes/payment/index.js';
import { appleNotification, makeChain } from '../../services/payment/test/apple-chain.js';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';

type Json = any;
const PRODUCTS = '/api/payment-service/api/v1/products';
const WEBHOOK = '/api/payment-service/webhook/stripe';
const ACCOUNTS = '/api/merch-service/api/v1/token-accounts';
const SUBSCRIPTION = '/api/payment-service/subscription';
const APPLE_WEBHOOK = '/api/payment-service/webhook/apple';
const appleChain = await makeChain();
const stripe = new Stripe('sk_test_spinroom');

describe('payments through the BFF', () => {
  const { call, platform } = usePlatform({ payment: { APPLE_ROOT_CERT_PEM: appleChain.rootPem, APPLE_BUNDLE_ID: 'fm.spinroom.app' } });
  const signUp = async () =>
    (await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } })).body as {
      accessToken: string;
      userUuid: string;
    };
  const sign = (payload: string, secret = platform().payment.webhookSecret) =>
    stripe.webhooks.generateTestHeaderString({ payload, secret });
  const deliver = (payload: string, signature: string) =>
    call('POST', WEBHOOK, { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': signature } });

  it('lets admins write products (401 without a token, 403 for others) and anyone signed in read them', async () => {
    const admin = await signedToken('admin');
    const person = await signedToken('user');
    const body = { name: 'Stack of 100', description: '100 tokens', price: 499, currency: 'usd', tokens: 100 };
    expect((await call('POST', PRODUCTS, { body })).status).toBe(401);
    const refused = await call('POST', PRODUCTS, { token: person, body });
    expect(refused.status).toBe(403);

    const made = await call('POST', PRODUCTS, { token: admin, body });
    expect(made.status).toBe(201);
    const product: Json = made.body;
    expect(product).toMatchObject({ ...body, paymentType: 'one_time' });
    expect((await call('GET', `${PRODUCTS}/${product.id}`, { token: person })).body).toEqual(product);
    const listed = await call('GET', `${PRODUCTS}?id=${product.id}&offset=0&limit=5`, { token: person });
    expect(listed.body).toEqual({ products: [product], total: 1 });
    expect((await call('POST', PRODUCTS, { token: admin, body: { ...body, price: 0 } })).status).toBe(400);

    expect((await call('PATCH', `${PRODUCTS}/${product.id}`, { token: person, body: { tokens: 150 } })).status).toBe(403);
    expect((await call('PATCH', `${PRODUCTS}/${product.id}`, { body: { tokens: 150 } })).status).toBe(401);
    const patched = await call('PATCH', `${PRODUCTS}/${product.id}`, { token: admin, body: { tokens: 150 } });
    expect([patched.status, patched.body.tokens, patched.body.name]).toEqual([200, 150, body.name]);

    expect((await call('DELETE', `${PRODUCTS}/${product.id}`, { token: person })).status).toBe(403);
    expect((await call('DELETE', `${PRODUCTS}/${product.id}`)).status).toBe(401);
    expect((await call('DELETE', `${PRODUCTS}/${product.id}`, { token: admin })).status).toBe(200);
    expect((await call('GET', `${PRODUCTS}/${product.id}`, { token: person })).status).toBe(404);
    expect((await call('DELETE', `${PRODUCTS}/${product.id}`, { token: admin })).status).toBe(404);
  });

  it("checks out on stripe-mock and credits the bundle once when Stripe's signed event arrives three times at once", async () => {
    const admin = await signedToken('admin');
    const body = { name: 'Crate of 250', price: 999, currency: 'usd', tokens: 250 };
    const product: Json = (await call('POST', PRODUCTS, { token: admin, body })).body;
    const buyer = await signUp();
    const urls = { successUrl: 'https://spinroom.example/shop?paid=1', cancelUrl: 'https://spinroom.example/shop' };

    const checkout = await call('POST', `${PRODUCTS}/${product.id}/checkout`, { token: buyer.accessToken, body: urls });
    expect(checkout.status).toBe(201);
    expect(checkout.body.id).toMatch(/^cs_/);
    expect(checkout.body.url).toMatch(/^https:\/\//);
    expect((await call('POST', `${PRODUCTS}/${product.id}/checkout`, { body: urls })).status).toBe(401);
    expect((await call('POST', `${PRODUCTS}/${randomUUID()}/checkout`, { token: buyer.accessToken, body: urls })).status).toBe(404);

    const payload = checkoutCompletedEvent({ id: checkout.body.id, userUuid: buyer.userUuid, productId: product.id, tokens: 250 });
    const answers = await Promise.all([1, 2, 3].map(() => deliver(payload, sign(payload))));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.filter((answer) => answer.body.processed === true)).toHaveLength(1);
    const account: Json = await eventually(async () => {
      const res = await call('GET', `${ACCOUNTS}/self`, { token: buyer.accessToken });
      return res.status === 200 ? res.body : undefined;
    }, 20_000);
    expect(account).toMatchObject({ balance: 250, credited: 250 });
    // Delivered again later: nothing more.
    expect((await deliver(payload, sign(payload))).body).toEqual({ received: true, processed: false });
    expect((await call('GET', `${ACCOUNTS}/self`, { token: buyer.accessToken })).body.credited).toBe(250);

    // Another event (another purchase) credits again.
    const second = checkoutCompletedEvent({ id: checkout.body.id, userUuid: buyer.userUuid, productId: product.id, tokens: 250 });
    expect((await deliver(second, sign(second))).body).toEqual({ received: true, processed: true });
    expect((await call('GET', `${ACCOUNTS}/self`, { token: buyer.accessToken })).body.credited).toBe(500);
  });

  it('takes a refunded bundle back through the points service: a partial refund, then the rest, bounded by what is left', async () => {
    const buyer = await signUp();
    const paymentIntent = `pi_${randomUUID()}`;
    const bought = JSON.parse(
      checkoutCompletedEvent({ id: `cs_test_${randomUUID()}`, userUuid: buyer.userUuid, productId: randomUUID(), tokens: 100 }),
    );
    bought.data.object.payment_intent = paymentIntent;
    const paid = JSON.stringify(bought);
    expect((await deliver(paid, sign(paid))).body).toEqual({ received: true, processed: true });
    const refund = (amountRefunded: number) =>
      JSON.stringify({
        id: `evt_${randomUUID()}`,
        object: 'event',
        type: 'charge.refunded',
        created: Math.floor(Date.now() / 1000),
        data: {
          object: {
            id: `ch_${paymentIntent}`,
            object: 'charge',
            payment_intent: paymentIntent,
            amount: 1000,
            amount_refunded: amountRefunded,
          },
        },
      });
    const self = async () => (await call('GET', `${ACCOUNTS}/self`, { token: buyer.accessToken })).body;

    const partial = refund(250);
    expect((await deliver(partial, sign(partial))).body).toEqual({ received: true, processed: true });
    expect(await self()).toMatchObject({ balance: 75, credited: 100, spent: 25 });
    expect((await deliver(partial, sign(partial))).body).toEqual({ received: true, processed: false });

    // The buyer spends 60 of the 75 left; the refund of the rest takes the 15 left, never below zero.
    const hold = await call('POST', '/api/merch-service/api/v1/token-transactions/hold', {
      token: buyer.accessToken,
      body: { amount: 60, idempotencyKey: randomUUID() },
    });
    expect(hold.status).toBe(201);
    const commit = await call('POST', '/api/merch-service/api/v1/token-transactions/commit', {
      token: buyer.accessToken,
      body: { transactionId: hold.body.id, idempotencyKey: randomUUID() },
    });
    expect(commit.status).toBe(201);
    const rest = refund(1000);
    expect((await deliver(rest, sign(rest))).body).toEqual({ received: true, processed: true });
    expect(await self()).toMatchObject({ balance: 0, credited: 100, spent: 100 });
    const refunds = await platform().payment.service.payments.refundsOf(paymentIntent);
    expect(refunds.map((r) => [r.tokensDue, r.tokensTaken, r.tokensShort])).toEqual([
      [25, 25, 0],
      [75, 15, 60],
    ]);

    // Nothing left at all (the points service answers 402): all of it is recorded short.
    const other = `pi_${randomUUID()}`;
    const again = JSON.parse(
      checkoutCompletedEvent({ id: `cs_test_${randomUUID()}`, userUuid: buyer.userUuid, productId: randomUUID(), tokens: 10 }),
    );
    again.data.object.payment_intent = other;
    const paidAgain = JSON.stringify(again);
    expect((await deliver(paidAgain, sign(paidAgain))).body.processed).toBe(true);
    const spent = await call('POST', '/api/merch-service/api/v1/token-transactions/hold', {
      token: buyer.accessToken,
      body: { amount: 10, idempotencyKey: randomUUID() },
    });
    expect(spent.status).toBe(201);
    const refundOther = refund(1000).replaceAll(paymentIntent, other);
    expect((await deliver(refundOther, sign(refundOther))).body).toEqual({ received: true, processed: true });
    expect(await self()).toMatchObject({ balance: 0, held: 10, credited: 110, spent: 100 });
    expect(await platform().payment.service.payments.refundsOf(other)).toMatchObject([{ tokensDue: 10, tokensTaken: 0, tokensShort: 10 }]);
  });

  it('refuses an event whose signature does not verify (400) and credits nothing', async () => {
    const buyer = await signUp();
    const payload = checkoutCompletedEvent({
      id: `cs_test_${randomUUID()}`,
      userUuid: buyer.userUuid,
      productId: randomUUID(),
      tokens: 1000,
    });
    const forged = await deliver(payload, sign(payload, 'whsec_not_the_endpoints_secret'));
    expect(forged.status).toBe(400);
    expect((await deliver(payload, 't=1,v1=00')).status).toBe(400);
    expect((await deliver(payload, '')).status).toBe(400);
    // The body changed after signing: refused too.
    const signature = sign(payload);
    expect((await deliver(payload.replace('1000', '9000'), signature)).status).toBe(400);
    const made = await call('POST', ACCOUNTS, { token: buyer.accessToken });
    expect(made.body.credited).toBe(0);
  });

  it('sells subscriptions: plans, checkout and portal on stripe-mock, Stripe events keeping the level, who may read and count them', async () => {
    const admin = await signedToken('admin');
    const level = `supporter-${randomUUID().slice(0, 6)}`;
    const planBody = { name: 'Supporter', price: 499, currency: 'usd', paymentType: 'recurring', interval: 'month', level };
    expect((await call('POST', PRODUCTS, { token: admin, body: { ...planBody, tokens: 5 } })).status).toBe(400);
    const made = await call('POST', PRODUCTS, { token: admin, body: planBody });
    expect(made.status).toBe(201);
    const plan: Json = made.body;
    expect(plan).toMatchObject({ paymentType: 'recurring', interval: 'month', level, tokens: 0, appleProductId: null });

    const buyer = await signUp();
    expect((await call('GET', `${SUBSCRIPTION}/products`)).status).toBe(401);
    const plans = await call('GET', `${SUBSCRIPTION}/products?limit=100`, { token: buyer.accessToken });
    expect(plans.body.products.map((product: Json) => product.id)).toContain(plan.id);
    expect(plans.body.products.every((product: Json) => product.paymentType === 'recurring')).toBe(true);
    const bundles = await call('GET', `${PRODUCTS}?limit=100`, { token: buyer.accessToken });
    expect(bundles.body.products.map((product: Json) => product.id)).not.toContain(plan.id);

    const urls = { successUrl: 'https://spinroom.example/subscribed', cancelUrl: 'https://spinroom.example/plans' };
    const checkout = await call('POST', `${SUBSCRIPTION}/checkout/${plan.id}`, { token: buyer.accessToken, body: urls });
    expect(checkout.status).toBe(201);
    expect(checkout.body.id).toMatch(/^cs_/);
    expect((await call('POST', `${SUBSCRIPTION}/checkout/${randomUUID()}`, { token: buyer.accessToken, body: urls })).status).toBe(404);
    expect((await call('POST', `${PRODUCTS}/${plan.id}/checkout`, { token: buyer.accessToken, body: urls })).status).toBe(400);
    const noCustomer = await call('POST', `${SUBSCRIPTION}/portal`, { token: buyer.accessToken, body: { returnUrl: urls.cancelUrl } });
    expect([noCustomer.status, noCustomer.body.message]).toEqual([
      404,
      'You have no Stripe customer yet: the billing portal opens once you have subscribed through Stripe checkout',
    ]);
    expect((await call('GET', SUBSCRIPTION, { token: buyer.accessToken })).body).toEqual({ active: null, subscriptions: [] });

    const created = Math.floor(Date.now() / 1000) - 30;
    const subscriptionId = `sub_${randomUUID()}`;
    const customer = `cus_${randomUUID()}`;
    const metadata = { userUuid: buyer.userUuid, productId: plan.id, level };
    const stripeEvent = (type: string, at: number, object: object) =>
      JSON.stringify({ id: `evt_${randomUUID()}`, object: 'event', type, created: at, livemode: false, data: { object } });
    const subscriptionObject = (status: string) => ({
      id: subscriptionId,
      object: 'subscription',
      customer,
      status,
      start_date: created,
      ended_at: status === 'canceled' ? created + 20 : null,
      cancel_at_period_end: false,
      metadata,
      items: { object: 'list', data: [{ id: 'si_1', current_period_start: created, current_period_end: created + 30 * 86_400 }] },
    });
    const events = [
      stripeEvent('customer.subscription.created', created, subscriptionObject('active')),
      stripeEvent('checkout.session.completed', created + 1, {
        id: checkout.body.id,
        object: 'checkout.session',
        mode: 'subscription',
        payment_status: 'paid',
        customer,
        subscription: subscriptionId,
        customer_details: { address: { country: 'NL' } },
        metadata,
      }),
    ];
    for (const payload of events) expect((await deliver(payload, sign(payload))).body).toEqual({ received: true, processed: true });

    const mine = await call('GET', SUBSCRIPTION, { token: buyer.accessToken });
    expect(mine.body.active).toMatchObject({
      provider: 'stripe',
      providerSubscriptionId: subscriptionId,
      level,
      status: 'active',
      region: 'NL',
      productId: plan.id,
    });
    expect(mine.body.subscriptions).toHaveLength(1);
    expect((await call('POST', `${SUBSCRIPTION}/checkout/${plan.id}`, { token: buyer.accessToken, body: urls })).status).toBe(409);
    const portal = await call('POST', `${SUBSCRIPTION}/portal`, { token: buyer.accessToken, body: { returnUrl: urls.cancelUrl } });
    expect(portal.status).toBe(201);
    expect(portal.body.url).toMatch(/^https:\/\//);

    const stranger = await signUp();
    expect((await call('GET', `${SUBSCRIPTION}/user/${buyer.userUuid}`, { token: stranger.accessToken })).status).toBe(403);
    expect((await call('GET', `${SUBSCRIPTION}/user/${buyer.userUuid}`, { token: admin })).body).toEqual(mine.body);
    expect((await call('GET', `${SUBSCRIPTION}/user/${buyer.userUuid}`, { token: buyer.accessToken })).body).toEqual(mine.body);
    expect((await call('GET', `${SUBSCRIPTION}/count?level=${level}`, { token: buyer.accessToken })).status).toBe(403);
    expect((await call('GET', `${SUBSCRIPTION}/count?level=${level}&region=NL`, { token: admin })).body).toEqual({ count: 1 });
    expect((await call('GET', `${SUBSCRIPTION}/count?level=${level}&region=US`, { token: admin })).body).toEqual({ count: 0 });
    const window = `startDate=${new Date(Date.now() - 3_600_000).toISOString()}&endDate=${new Date().toISOString()}`;
    expect((await call('GET', `${SUBSCRIPTION}/count?level=${level}&${window}`, { token: admin })).body).toEqual({ count: 1 });
    expect((await call('GET', `${SUBSCRIPTION}/count?startDate=yesterday`, { token: admin })).status).toBe(400);

    // Another service asks for the level over gRPC with its own token; a person may ask only for themself.
    const client = createPaymentClient(platform().grpc.payment);
    try {
      const service = await signedToken('service');
      expect(await client.getActiveSubscription({ userUuid: buyer.userUuid }, { token: service })).toMatchObject({ level });
      expect(await client.getActiveSubscription({ userUuid: stranger.userUuid }, { token: service })).toEqual({ level: '' });
      await expect(client.getActiveSubscription({ userUuid: buyer.userUuid }, { token: stranger.accessToken })).rejects.toThrow();

      // The points service asks it too: a subscriber wears the subscribers' avatars while the subscription is active.
      const avatar = `sub-${randomUUID().slice(0, 8)}`;
      const made = await call('POST', '/api/merch-service/avatars', {
        token: admin,
        body: { slug: avatar, name: 'Night owl', status: 'SUBSCRIBER_ONLY' },
      });
      expect(made.status).toBe(201);
      const wearing = (uuid: string) => call('GET', `/api/merch-service/avatars/${avatar}/${uuid}`, { token: admin });
      expect((await wearing(buyer.userUuid)).body).toMatchObject({ canWear: true, assignment: null });
      expect((await wearing(stranger.userUuid)).body).toMatchObject({ canWear: false });
      expect(
        (await call('GET', '/api/merch-service/avatars', { token: buyer.accessToken })).body.map((a: { slug: string }) => a.slug),
      ).toContain(avatar);

      // Deleted later: no level any more; an older update delivered after that changes nothing.
      const deleted = stripeEvent('customer.subscription.deleted', created + 20, subscriptionObject('canceled'));
      const stale = stripeEvent('customer.subscription.updated', created + 10, subscriptionObject('active'));
      expect((await deliver(deleted, sign(deleted))).body.processed).toBe(true);
      expect((await deliver(stale, sign(stale))).body.processed).toBe(false);
      expect(await client.getActiveSubscription({ userUuid: buyer.userUuid }, { token: service })).toEqual({ level: '' });
      expect((await wearing(buyer.userUuid)).body).toMatchObject({ canWear: false });
      expect((await call('GET', SUBSCRIPTION, { token: buyer.accessToken })).body.subscriptions[0]).toMatchObject({
        status: 'canceled',
        active: false,
      });
    } finally {
      client.close();
    }
  });

  it("takes Apple's signed notifications: a subscription by appAccountToken, tokens bought in the app credited once, forgeries refused", async () => {
    const admin = await signedToken('admin');
    const suffix = randomUUID().slice(0, 8);
    const level = `apple-${suffix}`;
    const subscriptionProduct = `fm.spinroom.supporter.${suffix}`;
    const tokenProduct = `fm.spinroom.tokens.${suffix}`;
    const body = {
      name: 'Supporter (iOS)',
      price: 599,
      currency: 'usd',
      paymentType: 'recurring',
      interval: 'month',
      level,
      appleProductId: subscriptionProduct,
    };
    expect((await call('POST', PRODUCTS, { token: admin, body })).status).toBe(201);
    const bundle = { name: '700 tokens (iOS)', price: 999, currency: 'usd', tokens: 700, appleProductId: tokenProduct };
    expect((await call('POST', PRODUCTS, { token: admin, body: bundle })).status).toBe(201);
    expect((await call('POST', PRODUCTS, { token: admin, body: { ...bundle, name: 'Again' } })).status).toBe(409);

    const person = await signUp();
    const now = Date.now();
    const subscribed = appleNotification(appleChain, {
      notificationType: 'SUBSCRIBED',
      subtype: 'INITIAL_BUY',
      signedDate: now,
      transaction: {
        productId: subscriptionProduct,
        originalTransactionId: `1000${now}`,
        appAccountToken: person.userUuid,
        type: 'Auto-Renewable Subscription',
        purchaseDate: now,
        expiresDate: now + 30 * 86_400_000,
        storefront: 'GBR',
      },
    });
    const delivered = await call('POST', APPLE_WEBHOOK, { body: { signedPayload: subscribed.signedPayload } });
    expect([delivered.status, delivered.body]).toEqual([200, { received: true, processed: true }]);
    expect((await call('POST', APPLE_WEBHOOK, { body: { signedPayload: subscribed.signedPayload } })).body.processed).toBe(false);
    expect((await call('GET', SUBSCRIPTION, { token: person.accessToken })).body.active).toMatchObject({
      provider: 'apple',
      level,
      region: 'GBR',
      active: true,
    });

    const charge = appleNotification(appleChain, {
      notificationType: 'ONE_TIME_CHARGE',
      signedDate: now,
      transaction: { productId: tokenProduct, originalTransactionId: `2000${now}`, appAccountToken: person.userUuid, type: 'Consumable' },
    });
    const answers = await Promise.all([1, 2].map(() => call('POST', APPLE_WEBHOOK, { body: { signedPayload: charge.signedPayload } })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers.filter((answer) => answer.body.processed === true)).toHaveLength(1);
    const account: Json = await eventually(async () => {
      const res = await call('GET', `${ACCOUNTS}/self`, { token: person.accessToken });
      return res.status === 200 ? res.body : undefined;
    }, 20_000);
    expect(account).toMatchObject({ balance: 700, credited: 700 });

    const forger = await makeChain({ name: 'Forger' });
    const forged = appleNotification(forger, {
      notificationType: 'ONE_TIME_CHARGE',
      signedDate: now,
      transaction: { productId: tokenProduct, originalTransactionId: `3000${now}`, appAccountToken: person.userUuid, type: 'Consumable' },
    });
    expect((await call('POST', APPLE_WEBHOOK, { body: { signedPayload: forged.signedPayload } })).status).toBe(400);
    expect((await call('POST', APPLE_WEBHOOK, { body: {} })).status).toBe(400);
    expect((await call('GET', `${ACCOUNTS}/self`, { token: person.accessToken })).body.credited).toBe(700);
  });
});
