import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, type MikroORM } from '@spinroom/platform';
import { APPLE_UNAVAILABLE, type AppleJwsVerifier } from '../apple.js';
import type { Stripe } from '../stripe.js';
import { webhookVerifier } from '../stripe.js';
import {
  applySubscriptionChange,
  countSubscriptions,
  subscriberOf,
  subscriptionsOf,
  type Subscription,
  type SubscriptionChange,
} from './subscriptions.js';

export interface Actor {
  userUuid: string;
  role: string;
  kind: string;
}

export type PaymentType = 'one_time' | 'recurring';
export const INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type Interval = (typeof INTERVALS)[number];

/**
 * A product: one_time, naming the token bundle a purchase credits, or
 * recurring, a subscription plan billed every `interval` that gives its
 * subscribers a `level`. `appleProductId`: the App Store product sold as it.
 */
export interface Product {
  id: string;
  name: string;
  description: string;
  paymentType: PaymentType;
  price: number;
  currency: string;
  /** one_time: the tokens a purchase credits; 0 for recurring. */
  tokens: number;
  interval: Interval | null;
  level: string | null;
  appleProductId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProductInput {
  name: string;
  description: string;
  price: number;
  currency: string;
  paymentType?: PaymentType;
  tokens?: number;
  interval?: string;
  level?: string;
  appleProductId?: string;
}

export type ProductChanges = Partial<Pick<ProductInput, 'name' | 'description' | 'price' | 'currency' | 'tokens' | 'level'>> & {
  /** Empty: the product is no longer sold in the App Store. */
  appleProductId?: string;
};

/** Credits a bought bundle to a user's token account (the points service's CreditTokens). */
export type CreditTokens = (request: {
  userUuid: string;
  amount: number;
  reason: string;
  reference: string;
  idempotencyKey: string;
}) => Promise<unknown>;

/**
 * Takes up to `amount` tokens back from a user's account (the points
 * service's DebitTokens), at most what is available; answers what it took (0
 * when nothing was available).
 */
export type DebitTokens = (request: {
  userUuid: string;
  amount: number;
  reason: string;
  reference: string;
  idempotencyKey: string;
}) => Promise<{ taken: number }>;

/** What one refund event of a purchase claimed back: due, taken, and short (the user had spent it). */
export interface RefundOutcome {
  eventId: string;
  paymentIntentId: string;
  chargeId: string;
  tokensDue: number;
  tokensTaken: number;
  tokensShort: number;
}

const MAX_PRICE = 100_000_000;
const MAX_TOKENS = 1_000_000_000;
export const STRIPE_UNAVAILABLE = 'Payments are not available: Stripe is not configured on this server';
export const WEBHOOK_UNAVAILABLE = "Stripe's webhook is not available: its signing secret is not configured on this server";
export const NO_CUSTOMER = 'You have no Stripe customer yet: the billing portal opens once you have subscribed through Stripe checkout';
export const ALREADY_SUBSCRIBED = 'You already have an active subscription: change or cancel it in the billing portal';
const LEVEL = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const APPLE_PRODUCT_ID = /^[A-Za-z0-9._-]{1,200}$/;

interface ProductRow {
  id: string;
  name: string;
  description: string;
  payment_type: PaymentType;
  price: string | number;
  currency: string;
  tokens: string | number | null;
  interval: Interval | null;
  level: string | null;
  apple_product_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const product = (row: ProductRow): Product => ({
  id: row.id,
  name: row.name,
  description: row.description,
  paymentType: row.payment_type,
  price: Number(row.price),
  currency: row.currency,
  tokens: Number(row.tokens ?? 0),
  interval: row.interval,
  level: row.level,
  appleProductId: row.apple_product_id,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

const isAdmin = (actor: Actor) => actor.role === 'admin';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The kind's own fields: tokens for one_time; interval and level for recurring. */
function checkKind(kind: PaymentType, input: Partial<ProductInput>): void {
  const problems: string[] = [];
  if (kind === 'one_time') {
    if (input.tokens === undefined) problems.push('a one_time product needs tokens (the bundle a purchase credits)');
    if (input.interval !== undefined || input.level !== undefined) problems.push('interval and level are for recurring products');
  } else {
    if (input.tokens !== undefined) problems.push('a recurring product credits no tokens: it gives a level');
    if (input.interval === undefined) problems.push('a recurring product needs an interval (day, week, month or year)');
    if (input.level === undefined) problems.push('a recurring product needs a level');
  }
  if (problems.length > 0) throw new AppError(400, problems);
}

function checkInput(input: Partial<ProductInput>): void {
  const problems: string[] = [];
  if (input.paymentType !== undefined && input.paymentType !== 'one_time' && input.paymentType !== 'recurring') {
    problems.push('paymentType must be one_time or recurring');
  }
  if (input.interval !== undefined && !(INTERVALS as readonly string[]).includes(input.interval)) {
    problems.push('interval must be day, week, month or year');
  }
  if (input.level !== undefined && !LEVEL.test(input.level)) {
    problems.push('level must be 1 to 32 lower-case letters, digits, _ or - (e.g. supporter)');
  }
  if (input.appleProductId !== undefined && input.appleProductId !== '' && !APPLE_PRODUCT_ID.test(input.appleProductId)) {
    problems.push('appleProductId must be an App Store product id (letters, digits, . _ -)');
  }
  if (input.name !== undefined && (input.name.trim().length === 0 || input.name.length > 200)) {
    problems.push('name must be 1 to 200 characters');
  }
  if (input.description !== undefined && input.description.length > 2000) problems.push('description must be at most 2000 characters');
  if (input.price !== undefined && (!Number.isInteger(input.price) || input.price < 1 || input.price > MAX_PRICE)) {
    problems.push(`price must be a whole number of cents from 1 to ${MAX_PRICE}`);
  }
  if (input.currency !== undefined && !/^[a-z]{3}$/.test(input.currency)) problems.push('currency must be a three-letter ISO code (usd)');
  if (input.tokens !== undefined && (!Number.isInteger(input.tokens) || input.tokens < 1 || input.tokens > MAX_TOKENS)) {
    problems.push(`tokens must be a whole number from 1 to ${MAX_TOKENS}`);
  }
  if (problems.length > 0) throw new AppError(400, problems);
}

const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
const stripeTime = (seconds: number | null | undefined): Date | undefined =>
  typeof seconds === 'number' ? new Date(seconds * 1000) : undefined;
const idOf = (value: string | { id: string } | null | undefined): string | undefined => (typeof value === 'string' ? value : value?.id);
const mayReadSubscriptionsOf = (actor: Actor, userUuid: string) =>
  actor.userUuid === userUuid || isAdmin(actor) || actor.kind === 'service';

/** What the handling of one verified notification does in the transaction that records it; false: nothing to do. */
type Effect = (em: EntityManager) => Promise<boolean>;

/**
 * Products, their checkout, subscriptions, and Stripe's and Apple's
 * notifications. `stripe` is undefined without a secret key, `apple` without
 * an Apple root certificate: the paths that need them answer 503.
 */
export class Payments {
  constructor(
    private readonly orm: MikroORM,
    private readonly options: {
      stripe?: Stripe;
      webhookSecret?: string;
      apple?: AppleJwsVerifier;
      /** When set, an Apple notification of another app (data.bundleId) is refused. */
      appleBundleId?: string;
      credit: CreditTokens;
      /** Takes refunded tokens back; without it, charge.refunded is ignored (the app always gives it). */
      debit?: DebitTokens;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private async rows(sql: string, params: unknown[]): Promise<ProductRow[]> {
    return this.orm.em.fork().execute<ProductRow[]>(sql, params);
  }

  private async uniqueAppleProductId<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (String((error as { code?: unknown }).code) === '23505' || /product_apple_product_id_unique/.test(String(error))) {
        throw new AppError(409, 'Another product is already sold as this App Store product id');
      }
      throw error;
    }
  }

  async createProduct(actor: Actor, input: ProductInput): Promise<Product> {
    if (!isAdmin(actor)) throw new AppError(403, 'Only admins may manage products');
    checkInput(input);
    const kind = input.paymentType ?? 'one_time';
    checkKind(kind, input);
    const now = this.now();
    const [row] = await this.uniqueAppleProductId(() =>
      this.rows(
        `insert into "product" ("id", "name", "description", "payment_type", "price", "currency", "tokens", "interval", "level",
           "apple_product_id", "created_at", "updated_at")
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning *`,
        [
          randomUUID(),
          input.name.trim(),
          input.description,
          kind,
          input.price,
          input.currency,
          input.tokens ?? null,
          input.interval ?? null,
          input.level ?? null,
          input.appleProductId || null,
          now,
          now,
        ],
      ),
    );
    return product(row!);
  }

  async product(id: string): Promise<Product> {
    const [row] = UUID.test(id) ? await this.rows(`select * from "product" where "id" = ?`, [id]) : [];
    if (!row) throw new AppError(404, 'Product not found');
    return product(row);
  }

  async listProducts(query: { id?: string; paymentType?: PaymentType; offset: number; limit: number }): Promise<{
    products: Product[];
    total: number;
  }> {
    if (query.id !== undefined && !UUID.test(query.id)) return { products: [], total: 0 };
    const conditions: string[] = [];
    const params: unknown[] = [];
    if (query.id) {
      conditions.push(`"id" = ?`);
      params.push(query.id);
    }
    if (query.paymentType) {
      conditions.push(`"payment_type" = ?`);
      params.push(query.paymentType);
    }
    const where = conditions.length > 0 ? `where ${conditions.join(' and ')}` : '';
    const rows = await this.rows(`select * from "product" ${where} order by "created_at" desc, "id" limit ? offset ?`, [
      ...params,
      query.limit,
      query.offset,
    ]);
    const [count] = await this.orm.em.fork().execute<{ total: string }[]>(`select count(*) as "total" from "product" ${where}`, params);
    return { products: rows.map(product), total: Number(count?.total ?? 0) };
  }

  async updateProduct(actor: Actor, id: string, changes: ProductChanges): Promise<Product> {
    if (!isAdmin(actor)) throw new AppError(403, 'Only admins may manage products');
    checkInput(changes);
    const current = await this.product(id);
    if (current.paymentType === 'one_time' && changes.level !== undefined) throw new AppError(400, 'level is for recurring products');
    if (current.paymentType === 'recurring' && changes.tokens !== undefined) {
      throw new AppError(400, 'a recurring product credits no tokens: it gives a level');
    }
    const next = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) };
    const [row] = await this.uniqueAppleProductId(() =>
      this.rows(
        `update "product" set "name" = ?, "description" = ?, "price" = ?, "currency" = ?, "tokens" = ?, "level" = ?,
           "apple_product_id" = ?, "updated_at" = ?
         where "id" = ? returning *`,
        [
          next.name.trim(),
          next.description,
          next.price,
          next.currency,
          current.paymentType === 'one_time' ? next.tokens : null,
          next.level,
          next.appleProductId || null,
          this.now(),
          id,
        ],
      ),
    );
    if (!row) throw new AppError(404, 'Product not found');
    return product(row);
  }

  async deleteProduct(actor: Actor, id: string): Promise<void> {
    if (!isAdmin(actor)) throw new AppError(403, 'Only admins may manage products');
    const rows = UUID.test(id) ? await this.rows(`delete from "product" where "id" = ? returning *`, [id]) : [];
    if (rows.length === 0) throw new AppError(404, 'Product not found');
  }

  private buyer(actor: Actor, message: string): Stripe {
    if (actor.kind === 'service' || actor.role === 'guest') throw new AppError(403, message);
    const stripe = this.options.stripe;
    if (!stripe) throw new AppError(503, STRIPE_UNAVAILABLE);
    return stripe;
  }

  /** A Stripe Checkout Session buying one product for the caller (a person or a bot; guests: 403). */
  async checkout(
    actor: Actor,
    request: { productId: string; successUrl: string; cancelUrl: string },
  ): Promise<{ id: string; url: string }> {
    const stripe = this.buyer(actor, 'Sign in to buy tokens');
    const bought = await this.product(request.productId);
    if (bought.paymentType !== 'one_time') {
      throw new AppError(400, 'This product is a subscription: subscribe through /subscription/checkout/{id}');
    }
    const metadata = { productId: bought.id, userUuid: actor.userUuid, tokens: String(bought.tokens) };
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      client_reference_id: actor.userUuid,
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: bought.currency,
            unit_amount: bought.price,
            product_data: { name: bought.name, ...(bought.description ? { description: bought.description } : {}) },
          },
        },
      ],
      metadata,
      payment_intent_data: { metadata },
    });
    if (!session.url) throw new Error('Stripe answered a checkout session without a url');
    return { id: session.id, url: session.url };
  }

  private async customerOf(userUuid: string): Promise<string | undefined> {
    const [row] = await this.orm.em
      .fork()
      .execute<{ customer_id: string }[]>(`select "customer_id" from "stripe_customer" where "user_uuid" = ?`, [userUuid]);
    return row?.customer_id;
  }

  /**
   * A Stripe Checkout Session (subscription mode) for a recurring product:
   * the subscription carries the subscriber, the product and its level in its
   * metadata, and the caller's Stripe customer when they have one. Refused
   * (409) while the caller has an active subscription: the portal changes it.
   */
  async subscriptionCheckout(
    actor: Actor,
    request: { productId: string; successUrl: string; cancelUrl: string },
  ): Promise<{ id: string; url: string }> {
    const stripe = this.buyer(actor, 'Sign in to subscribe');
    const plan = await this.product(request.productId);
    if (plan.paymentType !== 'recurring' || !plan.interval || !plan.level) {
      throw new AppError(400, 'This product is not a subscription: buy it through /api/v1/products/{id}/checkout');
    }
    const { active } = await subscriptionsOf(this.orm.em.fork(), actor.userUuid, this.now());
    if (active) throw new AppError(409, ALREADY_SUBSCRIBED);
    const customer = await this.customerOf(actor.userUuid);
    const metadata = { productId: plan.id, userUuid: actor.userUuid, level: plan.level };
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      client_reference_id: actor.userUuid,
      ...(customer ? { customer } : {}),
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      billing_address_collection: 'required',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: plan.currency,
            unit_amount: plan.price,
            recurring: { interval: plan.interval },
            product_data: { name: plan.name, ...(plan.description ? { description: plan.description } : {}) },
          },
        },
      ],
      metadata,
      subscription_data: { metadata },
    });
    if (!session.url) throw new Error('Stripe answered a checkout session without a url');
    return { id: session.id, url: session.url };
  }

  /** A Stripe billing portal session for the caller's customer; 404 when they have none. */
  async portal(actor: Actor, request: { returnUrl: string }): Promise<{ id: string; url: string }> {
    const stripe = this.buyer(actor, 'Sign in to manage your subscription');
    const customer = await this.customerOf(actor.userUuid);
    if (!customer) throw new AppError(404, NO_CUSTOMER);
    const session = await stripe.billingPortal.sessions.create({ customer, return_url: request.returnUrl });
    return { id: session.id, url: session.url };
  }

  /** A user's subscriptions and the active one: the user themself, admins and services. */
  async subscriptions(actor: Actor, userUuid: string): Promise<{ subscriptions: Subscription[]; active: Subscription | undefined }> {
    if (!mayReadSubscriptionsOf(actor, userUuid)) throw new AppError(403, "Only admins and services may read another user's subscriptions");
    if (!UUID.test(userUuid)) return { subscriptions: [], active: undefined };
    return subscriptionsOf(this.orm.em.fork(), userUuid, this.now());
  }

  /** The subscription giving a user's level now, if any (services, admins, the user). */
  async activeSubscription(actor: Actor, userUuid: string): Promise<Subscription | undefined> {
    return (await this.subscriptions(actor, userUuid)).active;
  }

  async countSubscriptions(actor: Actor, query: { startDate?: Date; endDate?: Date; region?: string; level?: string }): Promise<number> {
    if (!isAdmin(actor)) throw new AppError(403, 'Only admins may count subscriptions');
    if (query.startDate && query.endDate && query.startDate > query.endDate) throw new AppError(400, 'startDate must not be after endDate');
    return countSubscriptions(this.orm.em.fork(), query);
  }

  /**
   * Handles one notification once: its id is inserted (`table`, `column`)
   * in the transaction that applies its effect, so a redelivery, even one at
   * the same moment, waits for the first and then finds the row; a failed
   * effect rolls the row back and the provider's retry handles it again.
   */
  private async once(table: string, column: string, id: string, type: string, effect: Effect): Promise<boolean> {
    return this.orm.em.fork().transactional(async (em) => {
      const inserted = await em.execute<unknown[]>(
        `insert into "${table}" ("${column}", "type") values (?, ?) on conflict do nothing returning "${column}"`,
        [id, type],
      );
      if (inserted.length === 0) return false;
      return effect(em);
    });
  }

  /**
   * Stripe's webhook: verifies the signature of the exact body, then handles
   * the event once (by its id, in `processed_stripe_event`). A paid
   * checkout.session.completed in payment mode credits the product's tokens
   * through the points service with an idempotency key made of the event's
   * id, so a retry after a crash credits nothing more either; in subscription
   * mode it keeps the buyer's customer and region. It also keeps the purchase
   * by its PaymentIntent: a charge.refunded of it takes the refunded share of
   * its tokens back (refundedCharge), keyed by the event's id too. customer.subscription.*
   * events keep the subscription, an older event never undoing a newer one.
   * False: handled before, or an event it ignores.
   */
  async handleWebhook(payload: Buffer, signature: string): Promise<boolean> {
    const secret = this.options.webhookSecret;
    if (!secret) throw new AppError(503, WEBHOOK_UNAVAILABLE);
    let event: ReturnType<typeof webhookVerifier.webhooks.constructEvent>;
    try {
      event = webhookVerifier.webhooks.constructEvent(payload, signature, secret);
    } catch {
      throw new AppError(400, "The Stripe-Signature header does not verify: this is not Stripe's event");
    }
    const at = stripeTime(event.created) ?? this.now();
    let effect: Effect | undefined;
    if (event.type === 'checkout.session.completed') {
      const session = event.data.object;
      if (session.mode === 'payment') effect = this.paidCheckout(session, event.id);
      else if (session.mode === 'subscription') effect = this.subscribedCheckout(session, at);
    } else if (event.type === 'charge.refunded') {
      effect = this.refundedCharge(event.data.object, event.id);
    } else if (
      event.type === 'customer.subscription.created' ||
      event.type === 'customer.subscription.updated' ||
      event.type === 'customer.subscription.deleted'
    ) {
      effect = this.stripeSubscription(event.data.object, at);
    }
    if (!effect) return false;
    return this.once('processed_stripe_event', 'event_id', event.id, event.type, effect);
  }

  private paidCheckout(session: Stripe.Checkout.Session, eventId: string): Effect | undefined {
    if (session.payment_status !== 'paid') return undefined;
    const userUuid = session.metadata?.userUuid ?? session.client_reference_id ?? '';
    const tokens = Number(session.metadata?.tokens);
    if (!UUID.test(userUuid) || !Number.isInteger(tokens) || tokens < 1) {
      throw new AppError(400, 'The checkout session names no buyer or token bundle of this service');
    }
    const paymentIntentId = idOf(session.payment_intent);
    const productId = isUuid(session.metadata?.productId) ? session.metadata.productId : null;
    return async (em) => {
      await this.rememberCustomer(em, userUuid, idOf(session.customer));
      // The purchase by its PaymentIntent, so a refund of its charge finds it.
      if (paymentIntentId) {
        await em.execute(
          `insert into "stripe_purchase" ("payment_intent_id", "checkout_session_id", "user_uuid", "product_id", "tokens")
           values (?, ?, ?, ?, ?) on conflict do nothing`,
          [paymentIntentId, session.id, userUuid, productId, tokens],
        );
      }
      await this.options.credit({
        userUuid,
        amount: tokens,
        reason: 'purchase',
        reference: `stripe:${session.id}`,
        idempotencyKey: `stripe-event:${eventId}`,
      });
      return true;
    };
  }

  /**
   * A refunded charge of a purchase: the refunded share of its tokens,
   * floor(tokens × amount_refunded / amount) in all, less what earlier refunds
   * of it claimed, is taken back (at most what the user has available; the
   * rest is recorded as short). A charge of no purchase made here: nothing.
   */
  private refundedCharge(charge: Stripe.Charge, eventId: string): Effect | undefined {
    const debit = this.options.debit;
    const paymentIntentId = idOf(charge.payment_intent);
    if (!debit || !paymentIntentId) return undefined;
    const amount = Number(charge.amount);
    const refunded = Number(charge.amount_refunded);
    if (!Number.isSafeInteger(amount) || amount < 1 || !Number.isSafeInteger(refunded) || refunded < 0 || refunded > amount) {
      throw new AppError(400, 'The refunded charge has no valid amount and amount_refunded');
    }
    return async (em) => {
      const [purchase] = await em.execute<{ user_uuid: string; tokens: string; refunded_tokens: string }[]>(
        `select "user_uuid", "tokens", "refunded_tokens" from "stripe_purchase" where "payment_intent_id" = ? for update`,
        [paymentIntentId],
      );
      if (!purchase) return false;
      const tokens = Number(purchase.tokens);
      // Whole numbers below 2^53: tokens ≤ 10^9 and amounts ≤ 10^8.
      const claimed = Math.floor((tokens * refunded) / amount);
      const due = Math.max(0, claimed - Number(purchase.refunded_tokens));
      const { taken } =
        due > 0
          ? await debit({
              userUuid: purchase.user_uuid,
              amount: due,
              reason: 'refund',
              reference: `stripe:${charge.id}`,
              idempotencyKey: `stripe-refund:${eventId}`,
            })
          : { taken: 0 };
      await em.execute(`update "stripe_purchase" set "refunded_tokens" = ? where "payment_intent_id" = ?`, [
        Math.max(claimed, Number(purchase.refunded_tokens)),
        paymentIntentId,
      ]);
      await em.execute(
        `insert into "stripe_refund" ("event_id", "payment_intent_id", "charge_id", "amount_refunded", "amount", "tokens_due",
           "tokens_taken", "tokens_short") values (?, ?, ?, ?, ?, ?, ?, ?)`,
        [eventId, paymentIntentId, charge.id, refunded, amount, due, taken, due - taken],
      );
      return true;
    };
  }

  /** A purchase's refunds, oldest first, with what each took back and what it could not (support). */
  async refundsOf(paymentIntentId: string): Promise<RefundOutcome[]> {
    const rows = await this.orm.em
      .fork()
      .execute<
        { event_id: string; payment_intent_id: string; charge_id: string; tokens_due: string; tokens_taken: string; tokens_short: string }[]
      >(
        `select "event_id", "payment_intent_id", "charge_id", "tokens_due", "tokens_taken", "tokens_short"
       from "stripe_refund" where "payment_intent_id" = ? order by "created_at", "event_id"`,
        [paymentIntentId],
      );
    return rows.map((row) => ({
      eventId: row.event_id,
      paymentIntentId: row.payment_intent_id,
      chargeId: row.charge_id,
      tokensDue: Number(row.tokens_due),
      tokensTaken: Number(row.tokens_taken),
      tokensShort: Number(row.tokens_short),
    }));
  }

  private async rememberCustomer(em: EntityManager, userUuid: string, customerId: string | undefined): Promise<void> {
    if (!customerId) return;
    await em.execute(`insert into "stripe_customer" ("user_uuid", "customer_id") values (?, ?) on conflict do nothing`, [
      userUuid,
      customerId,
    ]);
  }

  /** A completed subscription checkout: the buyer's customer and region; the subscription itself when its own event has not come yet. */
  private subscribedCheckout(session: Stripe.Checkout.Session, at: Date): Effect | undefined {
    const userUuid = session.metadata?.userUuid ?? session.client_reference_id ?? '';
    const subscriptionId = idOf(session.subscription);
    if (!isUuid(userUuid) || !subscriptionId) return undefined;
    const customerId = idOf(session.customer);
    const region = (session.customer_details?.address?.country ?? '').toUpperCase();
    return async (em) => {
      await this.rememberCustomer(em, userUuid, customerId);
      const productId = isUuid(session.metadata?.productId) ? session.metadata.productId : undefined;
      const plan = productId ? await this.planOf(em, { productId }) : undefined;
      return applySubscriptionChange(em, {
        provider: 'stripe',
        providerSubscriptionId: subscriptionId,
        userUuid,
        at,
        fillIn: true,
        productId: plan?.id ?? null,
        level: plan?.level ?? session.metadata?.level ?? '',
        statusWhenNew: session.payment_status === 'paid' || session.payment_status === 'no_payment_required' ? 'active' : 'incomplete',
        region,
        ...(customerId ? { customerId } : {}),
      });
    };
  }

  private async planOf(em: EntityManager, key: { productId?: string; appleProductId?: string }): Promise<Product | undefined> {
    const [row] = key.productId
      ? await em.execute<ProductRow[]>(`select * from "product" where "id" = ?`, [key.productId])
      : await em.execute<ProductRow[]>(`select * from "product" where "apple_product_id" = ?`, [key.appleProductId]);
    return row ? product(row) : undefined;
  }

  private stripeSubscription(object: Stripe.Subscription, at: Date): Effect {
    return async (em) => {
      const customerId = idOf(object.customer);
      const named = object.metadata?.userUuid;
      const [known] = customerId
        ? await em.execute<{ user_uuid: string }[]>(`select "user_uuid" from "stripe_customer" where "customer_id" = ?`, [customerId])
        : [];
      const userUuid = isUuid(named) ? named : (known?.user_uuid ?? (await subscriberOf(em, 'stripe', object.id)));
      // Not a subscription made by this service's checkout: nothing to keep.
      if (!userUuid) return false;
      await this.rememberCustomer(em, userUuid, customerId);
      const productId = isUuid(object.metadata?.productId) ? object.metadata.productId : undefined;
      const plan = productId ? await this.planOf(em, { productId }) : undefined;
      const item = object.items?.data?.[0];
      const ended = object.status === 'canceled' || object.status === 'incomplete_expired';
      const change: SubscriptionChange = {
        provider: 'stripe',
        providerSubscriptionId: object.id,
        userUuid,
        at,
        status: object.status,
        cancelAtPeriodEnd: Boolean(object.cancel_at_period_end),
        endedAt: ended ? (stripeTime(object.ended_at) ?? at) : null,
        ...(plan ? { productId: plan.id, level: plan.level ?? '' } : { level: object.metadata?.level ?? '' }),
        ...(customerId ? { customerId } : {}),
        ...(stripeTime(object.start_date) ? { startedAt: stripeTime(object.start_date) } : {}),
        ...(item?.current_period_start ? { currentPeriodStart: stripeTime(item.current_period_start) } : {}),
        ...(item?.current_period_end ? { currentPeriodEnd: stripeTime(item.current_period_end) } : {}),
      };
      return applySubscriptionChange(em, change);
    };
  }

  /**
   * App Store Server Notifications V2: the signedPayload and the signed
   * transaction and renewal info in it are verified (AppleJwsVerifier), then
   * the notification is handled once (by notificationUUID, in
   * `processed_apple_notification`): SUBSCRIBED and DID_RENEW make the
   * subscription (originalTransactionId) active for its period, EXPIRED and
   * REFUND or REVOKE end it, DID_CHANGE_RENEWAL_STATUS says whether it ends
   * at its period's end; ONE_TIME_CHARGE credits a one_time product's tokens
   * once per transaction. The subscriber is the transaction's
   * appAccountToken (the user's uuid). False: handled before, or ignored.
   */
  async handleAppleNotification(signedPayload: string): Promise<boolean> {
    const verifier = this.options.apple;
    if (!verifier) throw new AppError(503, APPLE_UNAVAILABLE);
    const notification = verifier.verify(signedPayload) as {
      notificationType?: unknown;
      subtype?: unknown;
      notificationUUID?: unknown;
      signedDate?: unknown;
      data?: { bundleId?: unknown; signedTransactionInfo?: unknown; signedRenewalInfo?: unknown };
    };
    const type = typeof notification.notificationType === 'string' ? notification.notificationType : '';
    if (!isUuid(notification.notificationUUID) || !type)
      throw new AppError(400, 'The notification has no notificationUUID or notificationType');
    const bundleId = this.options.appleBundleId;
    if (bundleId && notification.data?.bundleId !== bundleId)
      throw new AppError(400, `The notification is for another app than ${bundleId}`);
    const signed = (value: unknown) => (typeof value === 'string' && value ? verifier.verify(value) : undefined);
    const transaction = signed(notification.data?.signedTransactionInfo) as AppleTransaction | undefined;
    const renewal = signed(notification.data?.signedRenewalInfo) as { autoRenewStatus?: unknown } | undefined;
    const at = typeof notification.signedDate === 'number' ? new Date(notification.signedDate) : this.now();
    const effect = this.appleEffect(type, notification.subtype, transaction, renewal, at);
    if (!effect) return false;
    return this.once('processed_apple_notification', 'notification_uuid', notification.notificationUUID, type, effect);
  }

  private appleEffect(
    type: string,
    subtype: unknown,
    transaction: AppleTransaction | undefined,
    renewal: { autoRenewStatus?: unknown } | undefined,
    at: Date,
  ): Effect | undefined {
    if (!transaction || typeof transaction.originalTransactionId !== 'string' || typeof transaction.productId !== 'string')
      return undefined;
    const appleProductId = transaction.productId;
    const originalTransactionId = transaction.originalTransactionId;
    const named = isUuid(transaction.appAccountToken) ? transaction.appAccountToken.toLowerCase() : undefined;
    const ms = (value: unknown) => (typeof value === 'number' ? new Date(value) : undefined);
    if (type === 'ONE_TIME_CHARGE') {
      if (!named) throw new AppError(400, 'The App Store transaction names no appAccountToken (the buyer’s uuid)');
      const transactionId = typeof transaction.transactionId === 'string' ? transaction.transactionId : originalTransactionId;
      return async (em) => {
        const bought = await this.planOf(em, { appleProductId });
        // Unknown here: refused, so Apple retries once an admin names the product.
        if (bought?.paymentType !== 'one_time')
          throw new AppError(400, `No token product is sold as the App Store product ${appleProductId}`);
        await this.options.credit({
          userUuid: named,
          amount: bought.tokens,
          reason: 'purchase',
          reference: `apple:${transactionId}`,
          idempotencyKey: `apple-transaction:${transactionId}`,
        });
        return true;
      };
    }
    const change = (): Omit<SubscriptionChange, 'userUuid'> | undefined => {
      const expires = ms(transaction.expiresDate);
      const base = { provider: 'apple' as const, providerSubscriptionId: originalTransactionId, at };
      switch (type) {
        case 'SUBSCRIBED':
        case 'DID_RENEW':
          return {
            ...base,
            status: 'active',
            endedAt: null,
            ...(ms(transaction.originalPurchaseDate) ? { startedAt: ms(transaction.originalPurchaseDate) } : {}),
            currentPeriodStart: ms(transaction.purchaseDate) ?? null,
            currentPeriodEnd: expires ?? null,
            ...(typeof transaction.storefront === 'string' ? { region: transaction.storefront.toUpperCase() } : {}),
          };
        case 'EXPIRED':
          return { ...base, status: 'expired', endedAt: expires ?? at };
        case 'REFUND':
        case 'REVOKE':
          if (transaction.type !== 'Auto-Renewable Subscription') return undefined;
          return { ...base, status: 'revoked', endedAt: ms(transaction.revocationDate) ?? at };
        case 'DID_CHANGE_RENEWAL_STATUS': {
          const autoRenew = renewal?.autoRenewStatus === undefined ? subtype !== 'AUTO_RENEW_DISABLED' : renewal.autoRenewStatus === 1;
          return {
            ...base,
            cancelAtPeriodEnd: !autoRenew,
            statusWhenNew: expires && expires > this.now() ? 'active' : 'expired',
            ...(expires ? { currentPeriodEnd: expires } : {}),
          };
        }
        default:
          return undefined;
      }
    };
    const described = change();
    if (!described) return undefined;
    return async (em) => {
      const userUuid = named ?? (await subscriberOf(em, 'apple', originalTransactionId));
      if (!userUuid) return false;
      const plan = await this.planOf(em, { appleProductId });
      return applySubscriptionChange(em, {
        ...described,
        userUuid,
        ...(plan?.paymentType === 'recurring' ? { productId: plan.id, level: plan.level ?? '' } : {}),
      });
    };
  }
}

/** The fields of Apple's JWSTransactionDecodedPayload read here. */
interface AppleTransaction {
  transactionId?: unknown;
  originalTransactionId?: unknown;
  productId?: unknown;
  appAccountToken?: unknown;
  purchaseDate?: unknown;
  originalPurchaseDate?: unknown;
  expiresDate?: unknown;
  revocationDate?: unknown;
  storefront?: unknown;
  type?: unknown;
}
