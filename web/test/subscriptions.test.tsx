import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Subscription, SubscriptionPlan } from '../src/api/shop';
import { href, parseRoute } from '../src/app/router';
import { formatDate, formatPrice, setLocale } from '../src/i18n/i18n';
import { session } from '../src/session/session';
import { leaveFor } from '../src/shop/ShopScreen';
import { SubscribedReturn, SubscriptionSection, subscriptionUrls } from '../src/shop/Subscriptions';
import { json, renderWithQueries, stubBff, type SentRequest } from './fakeBff';

const PLAN = '33333333-3333-4333-8333-333333333333';
const YEARLY = '44444444-4444-4444-8444-444444444444';
const plan = (id: string, name: string, price: number, interval: SubscriptionPlan['interval'], level: string): SubscriptionPlan => ({
  id,
  name,
  description: '',
  paymentType: 'recurring',
  price,
  currency: 'usd',
  tokens: 0,
  interval,
  level,
});
const PLANS = [plan(PLAN, 'Supporter', 499, 'month', 'supporter'), plan(YEARLY, 'Patron', 4999, 'year', 'patron')];
const subscription = (over: Partial<Subscription> = {}): Subscription => ({
  id: '55555555-5555-4555-8555-555555555555',
  userUuid: 'me',
  provider: 'stripe',
  providerSubscriptionId: 'sub_1',
  productId: PLAN,
  level: 'supporter',
  status: 'active',
  active: true,
  region: 'NL',
  cancelAtPeriodEnd: false,
  startedAt: '2026-11-01T12:00:00.000Z',
  currentPeriodStart: '2026-11-01T12:00:00.000Z',
  currentPeriodEnd: '2026-12-01T12:00:00.000Z',
  endedAt: null,
  updatedAt: '2026-11-01T12:00:00.000Z',
  ...over,
});

/** The BFF's subscription paths as the section uses them; every request recorded. */
function fakeBff() {
  const state = {
    mine: { active: null, subscriptions: [] } as { active: Subscription | null; subscriptions: Subscription[] },
    checkoutAnswer: { status: 201, body: { id: 'cs_test_sub', url: 'https://checkout.stripe.com/c/pay/cs_test_sub' } as unknown },
    portalAnswer: { status: 201, body: { id: 'bps_1', url: 'https://billing.stripe.com/p/session/bps_1' } as unknown },
    requests: [] as SentRequest[],
  };
  state.requests = stubBff(({ method, path }) => {
    if (path === '/api/payment-service/subscription/products') return json({ products: PLANS, total: PLANS.length });
    if (path === '/api/payment-service/subscription') return json(state.mine);
    if (path.startsWith('/api/payment-service/subscription/checkout/') && method === 'POST')
      return json(state.checkoutAnswer.body, state.checkoutAnswer.status);
    if (path === '/api/payment-service/subscription/portal' && method === 'POST')
      return json(state.portalAnswer.body, state.portalAnswer.status);
    return undefined;
  });
  return state;
}

const wrap = renderWithQueries;

describe('the subscription routes', () => {
  it('routes the section and the page Stripe returns a subscriber to, and sends Stripe back to them', () => {
    expect(parseRoute('#/shop/subscription')).toEqual({ name: 'shop', section: 'subscription' });
    expect(parseRoute('#/shop/subscribed')).toEqual({ name: 'shop', checkout: 'subscribed' });
    expect(href({ name: 'shop', section: 'subscription' })).toBe('#/shop/subscription');
    expect(href({ name: 'shop', checkout: 'subscribed' })).toBe('#/shop/subscribed');
    expect(subscriptionUrls({ origin: 'https://spinroom.example', pathname: '/' })).toEqual({
      successUrl: 'https://spinroom.example/#/shop/subscribed',
      cancelUrl: 'https://spinroom.example/#/shop/cancelled',
      returnUrl: 'https://spinroom.example/#/shop/subscription',
    });
  });
});

describe('the Subscription section', () => {
  let bff: ReturnType<typeof fakeBff>;
  beforeEach(() => {
    session.signIn('token', 'me', 'user');
    bff = fakeBff();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    session.signOut();
    setLocale('en');
  });

  it("lists the plans with price, interval and level, and a Subscribe goes to the checkout's url", async () => {
    const leave = vi.spyOn(leaveFor, 'url').mockImplementation(() => {});
    wrap(<SubscriptionSection />);
    const plans = await screen.findAllByTestId('subscription-plan');
    expect(plans.map((p) => p.textContent)).toEqual([
      `Supporter${formatPrice(499, 'usd', 'en')} a monthLevel: supporterSubscribe to Supporter`,
      `Patron${formatPrice(4999, 'usd', 'en')} a yearLevel: patronSubscribe to Patron`,
    ]);
    await screen.findByText('You have no subscription.');
    // No Stripe subscription yet: nothing to manage.
    expect(screen.queryByRole('button', { name: 'Manage subscription' })).toBeNull();
    fireEvent.click(within(plans[0]!).getByRole('button', { name: 'Subscribe to Supporter' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_sub'));
    const asked = bff.requests.find((r) => r.method === 'POST');
    expect(asked?.path).toBe(`/api/payment-service/subscription/checkout/${PLAN}`);
    expect(asked?.body).toEqual({
      successUrl: `${window.location.origin}/#/shop/subscribed`,
      cancelUrl: `${window.location.origin}/#/shop/cancelled`,
    });
  });

  it("shows the server's 409 when already subscribed, and nothing is left for", async () => {
    const leave = vi.spyOn(leaveFor, 'url').mockImplementation(() => {});
    bff.checkoutAnswer = {
      status: 409,
      body: { statusCode: 409, message: 'You already have an active subscription: change or cancel it in the billing portal' },
    };
    wrap(<SubscriptionSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe to Patron' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'You already have an active subscription: change or cancel it in the billing portal',
      ),
    );
    expect(leave).not.toHaveBeenCalled();
  });

  it('shows the active Stripe subscription (plan, level, status, renewal) and opens the billing portal from Manage', async () => {
    const leave = vi.spyOn(leaveFor, 'url').mockImplementation(() => {});
    const active = subscription();
    bff.mine = { active, subscriptions: [active] };
    wrap(<SubscriptionSection />);
    const mine = await screen.findByTestId('my-subscription');
    await within(mine).findByText('Supporter');
    expect(within(mine).getByTestId('subscription-level').textContent).toBe('supporter');
    expect(within(mine).getByTestId('subscription-status').textContent).toBe('Active');
    expect(within(mine).getByTestId('subscription-period').textContent).toBe(
      `Renews on ${formatDate(active.currentPeriodEnd!, 'date', 'en')}.`,
    );
    expect(within(mine).getByText('Paid through Stripe')).toBeTruthy();
    expect(within(mine).queryByTestId('subscription-apple')).toBeNull();
    // The current plan is marked, not offered again.
    const plans = screen.getAllByTestId('subscription-plan');
    expect(within(plans[0]!).queryByRole('button')).toBeNull();
    expect(within(plans[0]!).getByText('Your plan')).toBeTruthy();
    fireEvent.click(within(mine).getByRole('button', { name: 'Manage subscription' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith('https://billing.stripe.com/p/session/bps_1'));
    const portal = bff.requests.find((r) => r.path.endsWith('/portal'));
    expect(portal?.body).toEqual({ returnUrl: `${window.location.origin}/#/shop/subscription` });
  });

  it("shows the portal's 404 as the server says it, and an ending subscription's end, in Spanish", async () => {
    setLocale('es');
    const leave = vi.spyOn(leaveFor, 'url').mockImplementation(() => {});
    const ending = subscription({ cancelAtPeriodEnd: true, status: 'past_due' });
    bff.mine = { active: ending, subscriptions: [ending] };
    bff.portalAnswer = {
      status: 404,
      body: {
        statusCode: 404,
        message: 'You have no Stripe customer yet: the billing portal opens once you have subscribed through Stripe checkout',
      },
    };
    wrap(<SubscriptionSection />);
    const mine = await screen.findByTestId('my-subscription');
    expect(within(mine).getByTestId('subscription-status').textContent).toBe('Pago atrasado: Stripe lo vuelve a intentar');
    expect(within(mine).getByTestId('subscription-period').textContent).toBe(
      `Termina el ${formatDate(ending.currentPeriodEnd!, 'date', 'es')}: no se renovará.`,
    );
    fireEvent.click(within(mine).getByRole('button', { name: 'Gestionar la suscripción' }));
    await waitFor(() =>
      expect(within(mine).getByRole('alert').textContent).toBe(
        'You have no Stripe customer yet: the billing portal opens once you have subscribed through Stripe checkout',
      ),
    );
    expect(leave).not.toHaveBeenCalled();
  });

  it("says an Apple subscription is managed in the App Store, with no portal of Stripe's to open", async () => {
    const apple = subscription({ provider: 'apple', providerSubscriptionId: '2000000123', productId: null, level: 'supporter' });
    bff.mine = { active: apple, subscriptions: [apple] };
    wrap(<SubscriptionSection />);
    const mine = await screen.findByTestId('my-subscription');
    await within(mine).findByText('Bought in the App Store');
    expect(within(mine).getByTestId('subscription-apple').textContent).toContain('change or cancel it in the App Store');
    expect(within(mine).queryByRole('button', { name: 'Manage subscription' })).toBeNull();
    // Its plan is not one of Stripe's here: every plan is still shown (a checkout would answer 409).
    expect(screen.getAllByRole('button', { name: /^Subscribe to / })).toHaveLength(2);
  });

  it("waits on Stripe's return page until the subscription is active", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      wrap(<SubscribedReturn />);
      const status = await screen.findByTestId('subscribed-status');
      await waitFor(() => expect(status.textContent).toBe('Waiting for Stripe to confirm your subscription…'));
      const active = subscription();
      bff.mine = { active, subscriptions: [active] };
      await vi.advanceTimersByTimeAsync(2500);
      await waitFor(() => expect(status.textContent).toBe('Your subscription is active: level supporter.'));
    } finally {
      vi.useRealTimers();
    }
  });
});
