// The shop's Subscription section (issue 16; #/shop/subscription opens the
// shop at it): the plans (the payment service's recurring products) with a
// Subscribe button each, which opens a Stripe Checkout Session in
// subscription mode as a bundle's purchase does (Stripe comes back to
// #/shop/subscribed or #/shop/cancelled); the caller's active subscription
// (plan, level, status, when it renews or ends, Stripe or Apple) with "Manage
// subscription", Stripe's billing portal. An Apple subscription is managed in
// the App Store, which the section says. The server's refusals (409 while
// subscribed, the portal's 404 before a first checkout) are shown as said.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { keys } from '../api/keys';
import { type Subscription, type SubscriptionPlan, subscriptions } from '../api/shop';
import { ErrorNote } from '../app/ErrorNote';
import { fill, formatDate, formatPrice, nameOf, useLocale, useT } from '../i18n/i18n';
import { leaveFor } from './leave';
import { useSubscriptionT } from './strings';
import './subscriptions.css';

/** Where Stripe's subscription checkout sends the subscriber back, and where the billing portal returns to. */
export function subscriptionUrls(location: Pick<Location, 'origin' | 'pathname'> = window.location): {
  successUrl: string;
  cancelUrl: string;
  returnUrl: string;
} {
  const base = `${location.origin}${location.pathname}`;
  return { successUrl: `${base}#/shop/subscribed`, cancelUrl: `${base}#/shop/cancelled`, returnUrl: `${base}#/shop/subscription` };
}

/** How often the return page reads the subscriptions again while Stripe's event is on its way, and for how long. */
export const SUBSCRIBED_POLL_MS = 2000;
const SUBSCRIBED_POLL_FOR_MS = 10 * 60_000;

export function usePlans() {
  return useQuery({ queryKey: keys.subscriptionPlans, queryFn: subscriptions.plans, staleTime: 60_000 });
}

/** The caller's subscriptions; `waiting` reads them again every few seconds until one is active (the checkout's return). */
export function useMySubscriptions(waiting = false) {
  const [since] = useState(() => Date.now());
  return useQuery({
    queryKey: keys.mySubscriptions,
    queryFn: subscriptions.mine,
    refetchInterval: (query) =>
      waiting && !query.state.data?.active && Date.now() - since < SUBSCRIBED_POLL_FOR_MS ? SUBSCRIBED_POLL_MS : false,
  });
}

/** Stripe's return after a subscription checkout: waits for the subscription to be active. */
export function SubscribedReturn() {
  const t = useSubscriptionT();
  const mine = useMySubscriptions(true);
  const active = mine.data?.active;
  return (
    <section className="card stack checkout-paid" aria-labelledby="subscribed-title">
      <h1 id="subscribed-title">{t.subscribedTitle}</h1>
      <p>{t.subscribedText}</p>
      <p role="status" data-testid="subscribed-status">
        {active ? fill(t.subscribedActive, { level: active.level }) : mine.data ? t.subscribedWaiting : ''}
      </p>
    </section>
  );
}

export function SubscriptionSection({ focus = false, waiting = false }: { focus?: boolean; waiting?: boolean }) {
  const t = useSubscriptionT();
  const shopT = useT();
  const client = useQueryClient();
  const plans = usePlans();
  const mine = useMySubscriptions(waiting);
  const title = useRef<HTMLHeadingElement>(null);
  const loaded = !!plans.data && !!mine.data;
  // #/shop/subscription (the avatar picker's link, the portal's return) brings the section into view once it has its content.
  useEffect(() => {
    if (focus && loaded) {
      title.current?.scrollIntoView({ block: 'start' });
      title.current?.focus({ preventScroll: true });
    }
  }, [focus, loaded]);
  const subscribe = useMutation({
    mutationFn: (productId: string) => {
      const { successUrl, cancelUrl } = subscriptionUrls();
      return subscriptions.checkout(productId, { successUrl, cancelUrl });
    },
    onSuccess: (session) => leaveFor.url(session.url),
    // A 409 means a subscription this page did not know of: read them again.
    onError: () => void client.invalidateQueries({ queryKey: keys.mySubscriptions }),
  });
  const portal = useMutation({
    mutationFn: () => subscriptions.portal(subscriptionUrls().returnUrl),
    onSuccess: (session) => leaveFor.url(session.url),
  });
  const active = mine.data?.active ?? null;
  // The billing portal is Stripe's: offered to whoever has had a Stripe subscription (its customer comes with its checkout).
  const hasStripe = (mine.data?.subscriptions ?? []).some((s) => s.provider === 'stripe');
  const planOf = (s: Subscription) => plans.data?.products.find((p) => p.id === s.productId);
  return (
    <section className="card stack subscription" id="subscription" aria-labelledby="subscription-title">
      <h2 id="subscription-title" ref={title} tabIndex={-1}>
        {t.subscriptionTitle}
      </h2>
      <p className="muted">{t.subscriptionIntro}</p>
      <ErrorNote error={mine.error} />
      {mine.data && (
        <div className="stack subscription-mine" data-testid="my-subscription">
          <h3>{t.yourSubscription}</h3>
          {active ? <ActiveSubscription subscription={active} plan={planOf(active)} /> : <p>{t.noSubscription}</p>}
          {hasStripe && (
            <div className="stack">
              <p className="muted small">{t.manageSubscriptionHint}</p>
              <p>
                <button type="button" disabled={portal.isPending} onClick={() => portal.mutate()}>
                  {t.manageSubscription}
                </button>
              </p>
              {portal.isPending || portal.isSuccess ? <p role="status">{t.portalOpening}</p> : <ErrorNote error={portal.error} />}
            </div>
          )}
        </div>
      )}
      <h3 id="subscription-plans-title">{t.subscriptionPlans}</h3>
      <ErrorNote error={plans.error} />
      {plans.data?.products.length === 0 && <p className="muted">{t.noSubscriptionPlans}</p>}
      <ul className="shop-grid" aria-labelledby="subscription-plans-title">
        {(plans.data?.products ?? []).map((plan) => (
          <PlanCard
            key={plan.id}
            plan={plan}
            current={active?.productId === plan.id}
            busy={subscribe.isPending}
            onSubscribe={() => subscribe.mutate(plan.id)}
          />
        ))}
      </ul>
      {subscribe.isPending || subscribe.isSuccess ? <p role="status">{shopT.checkoutOpening}</p> : <ErrorNote error={subscribe.error} />}
    </section>
  );
}

function PlanCard(props: { plan: SubscriptionPlan; current: boolean; busy: boolean; onSubscribe: () => void }) {
  const t = useSubscriptionT();
  const locale = useLocale();
  const { plan } = props;
  return (
    <li className="shop-item" data-testid="subscription-plan">
      <div className="shop-item-text">
        <h4>{plan.name}</h4>
        {plan.description && <p className="small">{plan.description}</p>}
        <p>{fill(t.subscriptionPrice[plan.interval], { price: formatPrice(plan.price, plan.currency, locale) })}</p>
        <p className="muted small">{fill(t.subscriptionLevel, { level: plan.level })}</p>
      </div>
      {props.current ? (
        <span className="badge">{t.yourPlan}</span>
      ) : (
        <button type="button" className="primary" disabled={props.busy} onClick={props.onSubscribe}>
          {fill(t.subscribeTo, { plan: plan.name })}
        </button>
      )}
    </li>
  );
}

function ActiveSubscription({ subscription: s, plan }: { subscription: Subscription; plan: SubscriptionPlan | undefined }) {
  const t = useSubscriptionT();
  const locale = useLocale();
  const end = s.currentPeriodEnd ? formatDate(s.currentPeriodEnd, 'date', locale) : '';
  return (
    <>
      <dl className="subscription-facts">
        {plan && (
          <>
            <dt>{t.subscriptionPlanLabel}</dt>
            <dd data-testid="subscription-plan-name">{plan.name}</dd>
          </>
        )}
        <dt>{t.subscriptionLevelLabel}</dt>
        <dd data-testid="subscription-level">{s.level}</dd>
        <dt>{t.subscriptionStatusLabel}</dt>
        <dd data-testid="subscription-status">{nameOf(t.subscriptionStatuses, s.status)}</dd>
      </dl>
      {end && (
        <p data-testid="subscription-period">{fill(s.cancelAtPeriodEnd ? t.subscriptionEnds : t.subscriptionRenews, { date: end })}</p>
      )}
      <p className="muted small">{t.subscriptionThrough[s.provider]}</p>
      {s.provider === 'apple' && (
        <p className="note" data-testid="subscription-apple">
          {t.subscriptionApple}
        </p>
      )}
    </>
  );
}
