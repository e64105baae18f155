// Subscriptions on PostgreSQL against stripe-mock: recurring products, the
// subscription checkout and the billing portal (real requests to Stripe's
// own mock server), and the subscriptions kept from Stripe's signed
// customer.subscription.* and checkout.session.completed events: each event
// once, and an older event arriving later never undoing a newer one.
// stripe-mock answers fixtures, not state, so the webhook's events are made
// here and signed with the stripe package's test-header helper.
import { randomUUID } from 'node:crypto';
import { dropDatabase, openServiceDatabase, type MikroORM } from '@spinroom/platform';
import { outcome, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeMock, type StripeMock } from '../../../test/support/stripe-mock.js';
import { paymentDatabase } from '../src/db/database.js';
import { ALREADY_SUBSCRIBED, NO_CUSTOMER, Payments, type Actor, type Product } from '../src/domain/payments.js';
import { createStripe, webhookVerifier } from '../src/stripe.js';

const ADMIN: Actor = { userUuid: randomUUID(), role: 'admin', kind: 'user' };
const SERVICE: Actor = { userUuid: randomUUID(), role: 'service', kind: 'service' };
const person = (): Actor => ({ userUuid: randomUUID(), role: 'user', kind: 'user' });
const SECRET = 'whsec_subscription_test';
const URLS = { successUrl: 'https://spinroom.example/subscribed', cancelUrl: 'https://spinroom.example/plans' };
const DAY = 86_400;

/** A Stripe event, as JSON, its `created` in seconds. */
function event(type: string, created: number, object: object, id = `evt_${randomUUID()}`): string {
  return JSON.stringify({ id, object: 'event', type, created, livemode: false, api_version: '2025-01-01', data: { object } });
}

function subscriptionObject(fields: {
  id: string;
  userUuid?: string;
  productId?: string;
  status: string;
  customer?: string;
  start: number;
  periodStart?: number;
  periodEnd?: number;
  endedAt?: number | null;
  cancelAtPeriodEnd?: boolean;
}) {
  return {
    id: fields.id,
    object: 'subscription',
    customer: fields.customer ?? `cus_${fields.id}`,
    status: fields.status,
    start_date: fields.start,
    ended_at: fields.endedAt ?? null,
    cancel_at_period_end: fields.cancelAtPeriodEnd ?? false,
    metadata: fields.userUuid ? { userUuid: fields.userUuid, ...(fields.productId ? { productId: fields.productId } : {}) } : {},
    items: {
      object: 'list',
      data: [
        {
          id: `si_${fields.id}`,
          current_period_start: fields.periodStart ?? fields.start,
          current_period_end: fields.periodEnd ?? fields.start + 30 * DAY,
        },
      ],
    },
  };
}

describe('subscriptions on PostgreSQL and stripe-mock', () => {
  const databaseUrl = uniqueDatabaseUrl('payment_subscriptions');
  let orm: MikroORM;
  let stripeMock: StripeMock;
  let payments: Payments;
  let plan: Product;
  const nowMs = Date.now();
  const deliver = (payload: string) =>
    payments.handleWebhook(Buffer.from(payload), webhookVerifier.webhooks.generateTestHeaderString({ payload, secret: SECRET }));

  beforeAll(async () => {
    stripeMock = await startStripeMock();
    orm = await openServiceDatabase('payment', databaseUrl, paymentDatabase);
    payments = new Payments(orm, {
      stripe: createStripe('sk_test_spinroom', stripeMock.apiBase),
      webhookSecret: SECRET,
      credit: async () => {},
      now: () => new Date(nowMs),
    });
    plan = await payments.createProduct(ADMIN, {
      name: 'Supporter',
      description: 'Monthly',
      price: 499,
      currency: 'usd',
      paymentType: 'recurring',
      interval: 'month',
      level: 'supporter',
    });
  }, 60_000);
  afterAll(async () => {
    await orm?.close();
    await dropDatabase(databaseUrl);
    await stripeMock?.stop();
  });

  it('keeps recurring products apart from token bundles and checks their fields', async () => {
    expect(plan).toMatchObject({ paymentType: 'recurring', interval: 'month', level: 'supporter', tokens: 0 });
    const base = { name: 'Plan', description: '', price: 100, currency: 'usd', paymentType: 'recurring' as const };
    expect(await outcome(payments.createProduct(ADMIN, { ...base, level: 'x' }))).toMatch(/^400 .*needs an interval/);
    expect(await outcome(payments.createProduct(ADMIN, { ...base, interval: 'month' }))).toMatch(/^400 .*needs a level/);
    expect(await outcome(payments.createProduct(ADMIN, { ...base, interval: 'fortnight', level: 'x' }))).toMatch(/^400 interval must be/);
    expect(await outcome(payments.createProduct(ADMIN, { ...base, interval: 'month', level: 'x', tokens: 5 }))).toMatch(/^400 .*no tokens/);
    expect(await outcome(payments.createProduct(ADMIN, { ...base, paymentType: 'one_time', interval: 'month', tokens: 5 }))).toMatch(
      /^400 /,
    );
    expect(await outcome(payments.createProduct(person(), { ...base, interval: 'month', level: 'x' }))).toMatch(/^403 /);
    const bundle = await payments.createProduct(ADMIN, { name: 'Bundle', description: '', price: 100, currency: 'usd', tokens: 10 });
    const recurring = await payments.listProducts({ paymentType: 'recurring', offset: 0, limit: 100 });
    expect(recurring.products.map((product) => product.id)).toContain(plan.id);
    expect(recurring.products.every((product) => product.paymentType === 'recurring')).toBe(true);
    const oneTime = await payments.listProducts({ paymentType: 'one_time', offset: 0, limit: 100 });
    expect(oneTime.products.map((product) => product.id)).toEqual([bundle.id]);
    // Each checkout sells its own kind.
    expect(await outcome(payments.checkout(person(), { productId: plan.id, ...URLS }))).toMatch(/^400 This product is a subscription/);
    expect(await outcome(payments.subscriptionCheckout(person(), { productId: bundle.id, ...URLS }))).toMatch(
      /^400 This product is not a subscription/,
    );
    expect(await payments.updateProduct(ADMIN, plan.id, { level: 'supporter' })).toMatchObject({ level: 'supporter', tokens: 0 });
    expect(await outcome(payments.updateProduct(ADMIN, plan.id, { tokens: 3 }))).toMatch(/^400 /);
    expect(await outcome(payments.updateProduct(ADMIN, bundle.id, { level: 'gold' }))).toMatch(/^400 /);
  });

  it('makes a subscription checkout on stripe-mock, keeps what the events say, and opens the portal for the customer', async () => {
    const subscriber = person();
    const session = await payments.subscriptionCheckout(subscriber, { productId: plan.id, ...URLS });
    expect(session.id).toMatch(/^cs_/);
    expect(session.url).toMatch(/^https:\/\//);
    expect(await outcome(payments.portal(subscriber, { returnUrl: URLS.cancelUrl }))).toBe(`404 ${NO_CUSTOMER}`);
    expect(
      await outcome(payments.subscriptionCheckout({ userUuid: 'g', role: 'guest', kind: 'guest' }, { productId: plan.id, ...URLS })),
    ).toMatch(/^403 /);

    const start = Math.floor(nowMs / 1000) - 60;
    const subscriptionId = `sub_${randomUUID()}`;
    const customer = `cus_${randomUUID()}`;
    const fields = { id: subscriptionId, userUuid: subscriber.userUuid, productId: plan.id, customer, start };
    // Stripe sends customer.subscription.created (incomplete) and .updated (active) in the same second; here .updated comes first.
    expect(await deliver(event('customer.subscription.updated', start, subscriptionObject({ ...fields, status: 'active' })))).toBe(true);
    expect(await deliver(event('customer.subscription.created', start, subscriptionObject({ ...fields, status: 'incomplete' })))).toBe(
      false,
    );
    const completed = event('checkout.session.completed', start + 1, {
      id: session.id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      payment_status: 'paid',
      client_reference_id: subscriber.userUuid,
      customer,
      subscription: subscriptionId,
      customer_details: { address: { country: 'de' } },
      metadata: { userUuid: subscriber.userUuid, productId: plan.id, level: 'supporter' },
    });
    const answers = await Promise.all([1, 2, 3].map(() => deliver(completed)));
    expect(answers.filter(Boolean)).toHaveLength(1);

    const mine = await payments.subscriptions(subscriber, subscriber.userUuid);
    expect(mine.subscriptions).toHaveLength(1);
    expect(mine.active).toMatchObject({
      provider: 'stripe',
      providerSubscriptionId: subscriptionId,
      productId: plan.id,
      level: 'supporter',
      status: 'active',
      active: true,
      region: 'DE',
      startedAt: new Date(start * 1000),
      currentPeriodEnd: new Date((start + 30 * DAY) * 1000),
    });
    expect((await payments.activeSubscription(SERVICE, subscriber.userUuid))?.level).toBe('supporter');
    expect((await payments.subscriptions(ADMIN, subscriber.userUuid)).active?.id).toBe(mine.active?.id);
    expect(await outcome(payments.subscriptions(person(), subscriber.userUuid))).toMatch(/^403 /);
    expect(await outcome(payments.subscriptionCheckout(subscriber, { productId: plan.id, ...URLS }))).toBe(`409 ${ALREADY_SUBSCRIBED}`);

    // The customer is known now: the portal opens on stripe-mock.
    const portal = await payments.portal(subscriber, { returnUrl: URLS.cancelUrl });
    expect(portal.id).toMatch(/^bps_/);
    expect(portal.url).toMatch(/^https:\/\//);

    // Cancelled at the period's end, then deleted; an older update arriving after the deletion changes nothing.
    const later = start + 10;
    expect(
      await deliver(
        event('customer.subscription.updated', later, subscriptionObject({ ...fields, status: 'active', cancelAtPeriodEnd: true })),
      ),
    ).toBe(true);
    expect((await payments.activeSubscription(subscriber, subscriber.userUuid))?.cancelAtPeriodEnd).toBe(true);
    const deleted = event(
      'customer.subscription.deleted',
      later + 20,
      subscriptionObject({ ...fields, status: 'canceled', endedAt: later + 20 }),
    );
    expect(await deliver(deleted)).toBe(true);
    expect(await deliver(deleted)).toBe(false);
    expect(await deliver(event('customer.subscription.updated', later + 5, subscriptionObject({ ...fields, status: 'active' })))).toBe(
      false,
    );
    const ended = await payments.subscriptions(subscriber, subscriber.userUuid);
    expect(ended.active).toBeUndefined();
    expect(ended.subscriptions[0]).toMatchObject({ status: 'canceled', active: false, endedAt: new Date((later + 20) * 1000) });
    expect(await payments.activeSubscription(SERVICE, subscriber.userUuid)).toBeUndefined();
  });

  it('ignores subscriptions it cannot tie to a user, and gives no level once a period is long over', async () => {
    const stray = event(
      'customer.subscription.created',
      Math.floor(nowMs / 1000),
      subscriptionObject({ id: `sub_${randomUUID()}`, status: 'active', start: 1 }),
    );
    expect(await deliver(stray)).toBe(false);

    const subscriber = person();
    const start = Math.floor(nowMs / 1000) - 40 * DAY;
    const id = `sub_${randomUUID()}`;
    const object = subscriptionObject({
      id,
      userUuid: subscriber.userUuid,
      productId: plan.id,
      status: 'active',
      start,
      periodEnd: start + 30 * DAY,
    });
    expect(await deliver(event('customer.subscription.created', start, object))).toBe(true);
    // Its period ended ten days ago and no renewal came: no level, though the status still says active.
    const kept = await payments.subscriptions(subscriber, subscriber.userUuid);
    expect(kept.subscriptions[0]).toMatchObject({ status: 'active', active: false });
    expect(kept.active).toBeUndefined();
    // A renewal (a later event moving the period) makes it active again.
    const renewed = subscriptionObject({
      ...{ id, userUuid: subscriber.userUuid, productId: plan.id, start },
      status: 'active',
      periodStart: start + 30 * DAY,
      periodEnd: start + 60 * DAY,
    });
    expect(await deliver(event('customer.subscription.updated', start + 30 * DAY, renewed))).toBe(true);
    expect((await payments.activeSubscription(subscriber, subscriber.userUuid))?.level).toBe('supporter');
  });

  it('counts the subscriptions active in a window, by region and level, for admins', async () => {
    const counting = new Payments(orm, { webhookSecret: SECRET, credit: async () => {} });
    const level = `count-${randomUUID().slice(0, 8)}`;
    const gold = await counting.createProduct(ADMIN, {
      name: 'Gold',
      description: '',
      price: 999,
      currency: 'usd',
      paymentType: 'recurring',
      interval: 'year',
      level,
    });
    const base = Date.UTC(2030, 0, 1) / 1000;
    const subscribe = async (days: number, endedAfterDays: number | undefined, country: string, status = 'active') => {
      const user = randomUUID();
      const id = `sub_${randomUUID()}`;
      const start = base + days * DAY;
      const fields = { id, userUuid: user, productId: gold.id, start };
      await deliver(event('customer.subscription.created', start, subscriptionObject({ ...fields, status })));
      await deliver(
        event('checkout.session.completed', start, {
          id: `cs_${id}`,
          mode: 'subscription',
          payment_status: 'paid',
          subscription: id,
          customer: `cus_${id}`,
          customer_details: { address: { country } },
          metadata: { userUuid: user, productId: gold.id },
        }),
      );
      if (endedAfterDays !== undefined) {
        const end = start + endedAfterDays * DAY;
        await deliver(event('customer.subscription.deleted', end, subscriptionObject({ ...fields, status: 'canceled', endedAt: end })));
      }
    };
    await subscribe(0, undefined, 'US'); // Jan 1 onwards
    await subscribe(10, 5, 'US'); // Jan 11 to Jan 16
    await subscribe(40, undefined, 'DE'); // Feb 10 onwards
    await subscribe(5, undefined, 'US', 'incomplete'); // never paid
    const at = (days: number) => new Date((base + days * DAY) * 1000);
    expect(await counting.countSubscriptions(ADMIN, { level })).toBe(3);
    expect(await counting.countSubscriptions(ADMIN, { level, startDate: at(20), endDate: at(30) })).toBe(1);
    expect(await counting.countSubscriptions(ADMIN, { level, startDate: at(12), endDate: at(13) })).toBe(2);
    expect(await counting.countSubscriptions(ADMIN, { level, endDate: at(39) })).toBe(2);
    expect(await counting.countSubscriptions(ADMIN, { level, startDate: at(17) })).toBe(2);
    expect(await counting.countSubscriptions(ADMIN, { level, region: 'us' })).toBe(2);
    expect(await counting.countSubscriptions(ADMIN, { level, region: 'DE', startDate: at(0), endDate: at(20) })).toBe(0);
    expect(await outcome(counting.countSubscriptions(person(), { level }))).toMatch(/^403 /);
    expect(await outcome(counting.countSubscriptions(ADMIN, { startDate: at(2), endDate: at(1) }))).toMatch(/^400 /);
  });
});
