// The token economy's REST calls (issue 16): the caller's token account, the
// shop's consumables and token bundles and their purchase under the points
// service (/api/merch-service), the products a bundle is sold as and their
// Stripe Checkout under the payment service (/api/payment-service).
// Components call these through React Query (keys in ./keys.ts).
import { api } from './client';
import { ApiError } from './errors';

export const MERCH = '/api/merch-service/api/v1';
export const PAYMENT = '/api/payment-service/api/v1';

/** Spec 000's token account: `balance` is what is available now, `updatedAt` its last change. */
export interface TokenAccount {
  id: string;
  userUuid: string;
  status: 'active' | 'disabled';
  balance: number;
  held: number;
  credited: number;
  spent: number;
  createdAt: string;
  updatedAt: string;
}

export interface TokenTransaction {
  id: string;
  /** A debit takes a refunded purchase's tokens back. */
  type: 'credit' | 'hold' | 'commit' | 'voided' | 'debit';
  amount: number;
  reason: string;
  /** A bought bundle's credit: `stripe:<checkout session id>`. */
  reference: string;
  balance: number;
  createdAt: string;
}

export type DisplayType = 'cover' | 'small';

export interface Consumable {
  id: string;
  name: string;
  description: string;
  tokenCost: number;
  /** How it shows in the room's chat: a wide cover, or small beside the message. */
  displayType: DisplayType;
  /** Its picture (served by the points service); '' until it has one. */
  imageUrl?: string;
  createdAt: string;
  updatedAt: string;
}

export interface ConsumablePurchase {
  id: string;
  accountId: string;
  consumableId: string;
  roomUuid: string;
  tokenCost: number;
  lastTokenBalance: number;
  createdAt: string;
}

export interface TokenBundle {
  id: string;
  name: string;
  /** The payment service's product that sells it. */
  productId: string;
  tokens: number;
  thumbnail: string;
}

export interface Product {
  id: string;
  name: string;
  description: string;
  price: number;
  currency: string;
  tokens: number;
}

/** Spec 002: consumable and token-bundle pages hold 32. */
export const SHOP_PAGE_SIZE = 32;

export interface PurchaseInput {
  roomUuid: string;
  consumableId: string;
  /** The account's updatedAt as the buyer saw it: a balance changed since is refused (409), not charged. */
  balanceUnmodifiedSince: string;
  /** One per purchase the person means; a retry of the same one sends the same key. */
  idempotencyKey: string;
}

/** Whose account this page has opened already (a POST the first time, reads after). */
let opened: string | undefined;

export const tokens = {
  self: () => api.get<TokenAccount>(`${MERCH}/token-accounts/self`),
  /** Makes the caller's account, or answers the one there is. */
  open: () => api.post<TokenAccount>(`${MERCH}/token-accounts`),
  /** The caller's latest transactions, newest first (the checkout's return page looks for its credit). */
  transactions: (limit: number) =>
    api.get<{ transactions: TokenTransaction[]; total: number }>(`${MERCH}/token-transactions`, { query: { limit } }),
  /**
   * The caller's account. The user service's sign-up event makes it, but one
   * who signed up before the points service existed, or whose event is still
   * on its way, has none yet: the first read of a page opens it (POST answers
   * the account there is, or makes it), later reads just read it.
   */
  mine: async (userUuid: string): Promise<TokenAccount> => {
    if (opened === userUuid) {
      try {
        return await tokens.self();
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
    }
    const account = await tokens.open();
    opened = userUuid;
    return account;
  },
};

/** A subscription plan: the payment service's recurring product, billed every `interval`, giving its subscribers `level`. */
export interface SubscriptionPlan extends Product {
  paymentType: 'recurring';
  interval: 'day' | 'week' | 'month' | 'year';
  level: string;
}

/** A subscription as the payment service keeps it from Stripe's events or Apple's notifications. */
export interface Subscription {
  id: string;
  userUuid: string;
  provider: 'stripe' | 'apple';
  providerSubscriptionId: string;
  /** The plan, when it is known here. */
  productId: string | null;
  level: string;
  /** Stripe's (active, trialing, past_due, canceled, ...) or Apple's (active, expired, revoked). */
  status: string;
  /** Whether it gives its level now. */
  active: boolean;
  region: string;
  cancelAtPeriodEnd: boolean;
  startedAt: string;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  endedAt: string | null;
  updatedAt: string;
}

export interface MySubscriptions {
  /** The subscription giving the caller's level now, or null. */
  active: Subscription | null;
  /** Newest first. */
  subscriptions: Subscription[];
}

const SUBSCRIPTION = '/api/payment-service/subscription';

/** The caller's subscriptions and the plans on sale (the level of the active one also rides on play events). */
export const subscriptions = {
  mine: () => api.get<MySubscriptions>(SUBSCRIPTION),
  plans: () => api.get<{ products: SubscriptionPlan[]; total: number }>(`${SUBSCRIPTION}/products`, { query: { limit: SHOP_PAGE_SIZE } }),
  /** A Checkout Session in subscription mode (409 while the caller has an active subscription): the page goes to its `url`. */
  checkout: (productId: string, urls: { successUrl: string; cancelUrl: string }) =>
    api.post<{ id: string; url: string }>(`${SUBSCRIPTION}/checkout/${encodeURIComponent(productId)}`, urls),
  /** Stripe's billing portal for the caller's customer (404 before their first subscription checkout). */
  portal: (returnUrl: string) => api.post<{ id: string; url: string }>(`${SUBSCRIPTION}/portal`, { returnUrl }),
};

export const shop = {
  consumables: () => api.get<Consumable[]>(`${MERCH}/consumables`, { query: { orderBy: 'tokenCost', limit: SHOP_PAGE_SIZE } }),
  bundles: () => api.get<TokenBundle[]>(`${MERCH}/token-bundles`, { query: { limit: SHOP_PAGE_SIZE } }),
  product: (id: string) => api.get<Product>(`${PAYMENT}/products/${encodeURIComponent(id)}`),
  purchase: (body: PurchaseInput) => api.post<ConsumablePurchase>(`${MERCH}/consumable-purchases`, body),
  /** A Stripe Checkout Session for the product: the page goes to its `url`. */
  checkout: (productId: string, urls: { successUrl: string; cancelUrl: string }) =>
    api.post<{ id: string; url: string }>(`${PAYMENT}/products/${encodeURIComponent(productId)}/checkout`, urls),
};
