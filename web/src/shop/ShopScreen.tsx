// The token shop (#/shop, issue 16): the balance, the subscription plans and
// the caller's subscription (./Subscriptions.tsx), token bundles bought through
// Stripe Checkout (the page goes to the checkout's url; Stripe comes back to
// #/shop/paid/<session id> or #/shop/cancelled), and the consumables with
// their cost and how they show in a room's chat.
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError } from '../api/errors';
import { keys } from '../api/keys';
import { type Product, shop, type TokenBundle, tokens } from '../api/shop';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { FillNodes } from '../i18n/FillNodes';
import { fill, formatPrice, useLocale, useT } from '../i18n/i18n';
import { useSession } from '../session/session';
import { ConsumableIcon } from './ConsumableIcon';
import { leaveFor } from './leave';
import { SubscribedReturn, SubscriptionSection } from './Subscriptions';
import { CoinIcon } from './TokenBalance';
import { tokenCount, useConsumables, useTokenAccount } from './useTokens';
import './shop.css';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where Stripe sends the buyer back: this page's address with the return page's route (Stripe fills in the session id). */
export function checkoutUrls(location: Pick<Location, 'origin' | 'pathname'> = window.location): { successUrl: string; cancelUrl: string } {
  const base = `${location.origin}${location.pathname}`;
  return { successUrl: `${base}#/shop/paid/{CHECKOUT_SESSION_ID}`, cancelUrl: `${base}#/shop/cancelled` };
}

export { leaveFor } from './leave';

export function ShopScreen({
  checkout,
  sessionId,
  section,
}: {
  checkout?: 'paid' | 'subscribed' | 'cancelled';
  sessionId?: string;
  section?: 'subscription';
}) {
  const t = useT();
  const s = useSession();
  if (!s.isLoggedIn) return <p className="muted">{t.signInFirst}</p>;
  return (
    <div className="shop stack">
      {checkout === 'paid' && <CheckoutPaid sessionId={sessionId && sessionId !== '{CHECKOUT_SESSION_ID}' ? sessionId : undefined} />}
      {checkout === 'cancelled' && (
        <section className="card stack" aria-labelledby="checkout-cancelled-title">
          <h1 id="checkout-cancelled-title">{t.checkoutCancelledTitle}</h1>
          <p>{t.checkoutCancelledText}</p>
        </section>
      )}
      {checkout === 'subscribed' && <SubscribedReturn />}
      <Balance heading={checkout ? 'h2' : 'h1'} />
      <SubscriptionSection focus={section === 'subscription'} waiting={checkout === 'subscribed'} />
      <Bundles />
      <Consumables />
    </div>
  );
}

function Balance({ heading: Heading }: { heading: 'h1' | 'h2' }) {
  const t = useT();
  const locale = useLocale();
  const account = useTokenAccount();
  return (
    <section className="card stack shop-balance" aria-labelledby="shop-title">
      <Heading id="shop-title">{t.shopTitle}</Heading>
      <p className="muted">{t.shopIntro}</p>
      <ErrorNote error={account.error} />
      {account.data && (
        <p className="balance-line">
          <span>{t.tokenBalance}: </span>
          <CoinIcon size={22} />
          <strong data-testid="shop-balance">{tokenCount(account.data.balance, locale)}</strong>
          {account.data.held > 0 && <span className="muted"> ({fill(t.tokensHeld, { count: account.data.held })})</span>}
        </p>
      )}
    </section>
  );
}

function Bundles() {
  const t = useT();
  const bundles = useQuery({ queryKey: keys.tokenBundles, queryFn: shop.bundles, staleTime: 60_000 });
  // Each bundle's price is its product's (the payment service's); a productId that names no product is not on sale.
  const products = useQueries({
    queries: (bundles.data ?? []).map((b) => ({
      queryKey: keys.product(b.productId),
      queryFn: async (): Promise<Product | null> => {
        try {
          return await shop.product(b.productId);
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        }
      },
      enabled: UUID.test(b.productId),
      staleTime: 300_000,
    })),
  });
  const buy = useMutation({
    mutationFn: (productId: string) => shop.checkout(productId, checkoutUrls()),
    onSuccess: (session) => leaveFor.url(session.url),
  });
  return (
    <section className="card stack" aria-labelledby="bundles-title">
      <h2 id="bundles-title">{t.tokenBundles}</h2>
      <p className="muted">{t.tokenBundlesHint}</p>
      <ErrorNote error={bundles.error} />
      {bundles.data?.length === 0 && <p className="muted">{t.noTokenBundles}</p>}
      <ul className="shop-grid" aria-labelledby="bundles-title">
        {(bundles.data ?? []).map((bundle, i) => (
          <BundleCard
            key={bundle.id}
            bundle={bundle}
            product={products[i]?.data ?? null}
            loading={products[i]?.isPending === true && UUID.test(bundle.productId)}
            busy={buy.isPending}
            onBuy={() => buy.mutate(bundle.productId)}
          />
        ))}
      </ul>
      {buy.isPending || buy.isSuccess ? <p role="status">{t.checkoutOpening}</p> : <ErrorNote error={buy.error} />}
    </section>
  );
}

function BundleCard(props: { bundle: TokenBundle; product: Product | null; loading: boolean; busy: boolean; onBuy: () => void }) {
  const t = useT();
  const locale = useLocale();
  const { bundle, product } = props;
  const price = product ? formatPrice(product.price, product.currency, locale) : '';
  return (
    <li className="shop-item" data-testid="token-bundle">
      {bundle.thumbnail ? <img src={bundle.thumbnail} alt="" width={48} height={48} /> : <CoinIcon size={40} />}
      <div className="shop-item-text">
        <h3>{bundle.name}</h3>
        <p>{tokenCount(bundle.tokens, locale)}</p>
      </div>
      {product ? (
        <button type="button" className="primary" disabled={props.busy} onClick={props.onBuy}>
          {/* "Buy Handful for $4.99" to a screen reader; "Buy for $4.99" shows under the bundle's name. */}
          <FillNodes template={t.buyBundle} values={{ bundle: <span className="sr-only">{bundle.name}</span>, price }} />
        </button>
      ) : (
        <span className="muted small">{props.loading ? t.loading : t.bundleNotForSale}</span>
      )}
    </li>
  );
}

function Consumables() {
  const t = useT();
  const locale = useLocale();
  const consumables = useConsumables();
  return (
    <section className="card stack" aria-labelledby="consumables-title">
      <h2 id="consumables-title">{t.consumables}</h2>
      <p className="muted">{t.consumablesHint}</p>
      <ErrorNote error={consumables.error} />
      {consumables.data?.length === 0 && <p className="muted">{t.noConsumables}</p>}
      <ul className="shop-grid" aria-labelledby="consumables-title">
        {(consumables.data ?? []).map((c) => (
          <li key={c.id} className="shop-item" data-testid="consumable">
            <ConsumableIcon consumable={c} size={40} />
            <div className="shop-item-text">
              <h3>{c.name}</h3>
              {c.description && <p className="small">{c.description}</p>}
              <p className="muted small">{t.displayTypes[c.displayType]}</p>
            </div>
            <span className="cost">
              <CoinIcon />
              {tokenCount(c.tokenCost, locale)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** How often the return page looks for the bought tokens, and for how long. */
export const CHECKOUT_POLL_MS = 2000;
const CHECKOUT_POLL_FOR_MS = 10 * 60_000;

/**
 * Stripe's return after paying: the tokens arrive when Stripe's webhook
 * reaches the payment service, a moment later. The page looks for the
 * credit of this checkout session (reference `stripe:<session id>`) among
 * the account's transactions, and reads the balance again when it is there.
 */
function CheckoutPaid({ sessionId }: { sessionId?: string }) {
  const t = useT();
  const locale = useLocale();
  const client = useQueryClient();
  const account = useTokenAccount();
  const [since] = useState(() => Date.now());
  const credited = useQuery({
    queryKey: ['tokens', 'checkout', sessionId ?? ''],
    queryFn: async () => {
      const { transactions } = await tokens.transactions(20);
      return transactions.some((x) => x.type === 'credit' && x.reference === `stripe:${sessionId}`);
    },
    enabled: !!sessionId,
    refetchInterval: (query) => (query.state.data === true || Date.now() - since > CHECKOUT_POLL_FOR_MS ? false : CHECKOUT_POLL_MS),
  });
  const arrived = credited.data === true;
  useEffect(() => {
    if (arrived) void client.invalidateQueries({ queryKey: keys.tokenAccount });
  }, [arrived, client]);
  // Without the session's id (a Stripe that did not fill it in), the balance is read again for a while instead.
  useEffect(() => {
    if (sessionId) return;
    const timer = setInterval(() => {
      if (Date.now() - since > CHECKOUT_POLL_FOR_MS) clearInterval(timer);
      else void client.invalidateQueries({ queryKey: keys.tokenAccount });
    }, CHECKOUT_POLL_MS);
    return () => clearInterval(timer);
  }, [sessionId, since, client]);
  // The balance read after the credit was found, not the one before it.
  const fresh = arrived && !!account.data && account.dataUpdatedAt >= credited.dataUpdatedAt;
  return (
    <section className="card stack checkout-paid" aria-labelledby="checkout-paid-title">
      <h1 id="checkout-paid-title">{t.checkoutPaidTitle}</h1>
      <p>{t.checkoutPaidText}</p>
      <p role="status" data-testid="checkout-status">
        {fresh && account.data
          ? fill(t.checkoutArrived, { balance: tokenCount(account.data.balance, locale) })
          : sessionId
            ? t.checkoutWaiting
            : ''}
      </p>
      <a href={href({ name: 'shop' })}>{t.backToShop}</a>
    </section>
  );
}
