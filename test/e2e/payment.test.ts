// The payment service through the BFF (issue 16, Payments): products are
// written by admins only (401 without a token, 403 for others), a checkout
// makes a Stripe Checkout Session on stripe-mock (Stripe's own mock server),
// and Stripe's webhook, verified with Stripe's signature scheme, credits the
// bought bundle to the buyer's token account exactly once, even when the
// event is delivered three times at once.
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { eventually } from '@spinroom/platform/testing';
import { describe, expect, it } from 'vitest';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';

type Json = any;
const PRODUCTS = '/api/payment-service/api/v1/products';
const WEBHOOK = '/api/payment-service/webhook/stripe';
const ACCOUNTS = '/api/merch-service/api/v1/token-accounts';
const stripe = new Stripe('sk_test_spinroom');

/** A checkout.session.completed event as Stripe sends it for a paid session made by the checkout path. */
function completedEvent(session: { id: string; userUuid: string; productId: string; tokens: number }, eventId = `evt_${randomUUID()}`) {
  return JSON.stringify({
    id: eventId,
    object: 'event',
    type: 'checkout.session.completed',
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: {
      object: {
        id: session.id,
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        payment_status: 'paid',
        client_reference_id: session.userUuid,
        metadata: { productId: session.productId, userUuid: session.userUuid, tokens: String(session.tokens) },
      },
    },
  });
}

describe('payments through the BFF', () => {
  const { call, platform } = usePlatform();
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

    const payload = completedEvent({ id: checkout.body.id, userUuid: buyer.userUuid, productId: product.id, tokens: 250 });
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
    const second = completedEvent({ id: checkout.body.id, userUuid: buyer.userUuid, productId: product.id, tokens: 250 });
    expect((await deliver(second, sign(second))).body).toEqual({ received: true, processed: true });
    expect((await call('GET', `${ACCOUNTS}/self`, { token: buyer.accessToken })).body.credited).toBe(500);
  });

  it('refuses an event whose signature does not verify (400) and credits nothing', async () => {
    const buyer = await signUp();
    const payload = completedEvent({ id: `cs_test_${randomUUID()}`, userUuid: buyer.userUuid, productId: randomUUID(), tokens: 1000 });
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
});
