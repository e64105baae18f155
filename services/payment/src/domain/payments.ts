import { randomUUID } from 'node:crypto';
import { AppError, type MikroORM } from '@spinroom/platform';
import type { Stripe } from '../stripe.js';
import { webhookVerifier } from '../stripe.js';

export interface Actor {
  userUuid: string;
  role: string;
  kind: string;
}

export interface Product {
  id: string;
  name: string;
  description: string;
  paymentType: 'one_time';
  price: number;
  currency: string;
  tokens: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProductInput {
  name: string;
  description: string;
  price: number;
  currency: string;
  tokens: number;
}

/** Credits a bought bundle to a user's token account (the points service's CreditTokens). */
export type CreditTokens = (request: {
  userUuid: string;
  amount: number;
  reason: string;
  reference: string;
  idempotencyKey: string;
}) => Promise<unknown>;

const MAX_PRICE = 100_000_000;
const MAX_TOKENS = 1_000_000_000;
export const STRIPE_UNAVAILABLE = 'Payments are not available: Stripe is not configured on this server';
export const WEBHOOK_UNAVAILABLE = "Stripe's webhook is not available: its signing secret is not configured on this server";

interface ProductRow {
  id: string;
  name: string;
  description: string;
  payment_type: 'one_time';
  price: string | number;
  currency: string;
  tokens: string | number;
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
  tokens: Number(row.tokens),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

const isAdmin = (actor: Actor) => actor.role === 'admin';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkInput(input: Partial<ProductInput>): void {
  const problems: string[] = [];
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

/**
 * Products, their checkout and Stripe's webhook. `stripe` is undefined
 * without a secret key: the paths that need it answer 503.
 */
export class Payments {
  constructor(
    private readonly orm: MikroORM,
    private readonly options: {
      stripe?: Stripe;
      webhookSecret?: string;
      credit: CreditTokens;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private async rows(sql: string, params: unknown[]): Promise<ProductRow[]> {
    return this.orm.em.fork().execute<ProductRow[]>(sql, params);
  }

  async createProduct(actor: Actor, input: ProductInput): Promise<Product> {
    if (!isAdmin(actor)) throw new AppError(403, 'Only admins may manage products');
    checkInput(input);
    const now = this.now();
    const [row] = await this.rows(
      `insert into "product" ("id", "name", "description", "payment_type", "price", "currency", "tokens", "created_at", "updated_at")
       values (?, ?, ?, 'one_time', ?, ?, ?, ?, ?) returning *`,
      [randomUUID(), input.name.trim(), input.description, input.price, input.currency, input.tokens, now, now],
    );
    return product(row!);
  }

  async product(id: string): Promise<Product> {
    const [row] = UUID.test(id) ? await this.rows(`select * from "product" where "id" = ?`, [id]) : [];
    if (!row) throw new AppError(404, 'Product not found');
    return product(row);
  }

  async listProducts(query: { id?: string; offset: number; limit: number }): Promise<{ products: Product[]; total: number }> {
    if (query.id !== undefined && !UUID.test(query.id)) return { products: [], total: 0 };
    const where = query.id ? `where "id" = ?` : '';
    const params = query.id ? [query.id] : [];
    const rows = await this.rows(`select * from "product" ${where} order by "created_at" desc, "id" limit ? offset ?`, [
      ...params,
      query.limit,
      query.offset,
    ]);
    const [count] = await this.orm.em.fork().execute<{ total: string }[]>(`select count(*) as "total" from "product" ${where}`, params);
    return { products: rows.map(product), total: Number(count?.total ?? 0) };
  }

  async updateProduct(actor: Actor, id: string, changes: Partial<ProductInput>): Promise<Product> {
    if (!isAdmin(actor)) throw new AppError(403, 'Only admins may manage products');
    checkInput(changes);
    const current = await this.product(id);
    const next = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) };
    const [row] = await this.rows(
      `update "product" set "name" = ?, "description" = ?, "price" = ?, "currency" = ?, "tokens" = ?, "updated_at" = ?
       where "id" = ? returning *`,
      [next.name.trim(), next.description, next.price, next.currency, next.tokens, this.now(), id],
    );
    if (!row) throw new AppError(404, 'Product not found');
    return product(row);
  }

  async deleteProduct(actor: Actor, id: string): Promise<void> {
    if (!isAdmin(actor)) throw new AppError(403, 'Only admins may manage products');
    const rows = UUID.test(id) ? await this.rows(`delete from "product" where "id" = ? returning *`, [id]) : [];
    if (rows.length === 0) throw new AppError(404, 'Product not found');
  }

  /** A Stripe Checkout Session buying one product for the caller (a person or a bot; guests: 403). */
  async checkout(
    actor: Actor,
    request: { productId: string; successUrl: string; cancelUrl: string },
  ): Promise<{ id: string; url: string }> {
    if (actor.kind === 'service' || actor.role === 'guest') throw new AppError(403, 'Sign in to buy tokens');
    const stripe = this.options.stripe;
    if (!stripe) throw new AppError(503, STRIPE_UNAVAILABLE);
    const bought = await this.product(request.productId);
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

  /**
   * Stripe's webhook: verifies the signature of the exact body, then handles
   * the event once (its id in `processed_stripe_event`, inserted in the
   * transaction that handles it: a redelivery, even at the same time, waits for
   * the first and then finds the row). A paid checkout.session.completed
   * credits the product's tokens through the points service with an
   * idempotency key made of the event's id, so a retry after a crash credits
   * nothing more either. False: handled before, or an event it ignores.
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
    if (event.type !== 'checkout.session.completed') return false;
    const session = event.data.object;
    if (session.payment_status !== 'paid' || session.mode !== 'payment') return false;
    const userUuid = session.metadata?.userUuid ?? session.client_reference_id ?? '';
    const tokens = Number(session.metadata?.tokens);
    if (!UUID.test(userUuid) || !Number.isInteger(tokens) || tokens < 1) {
      throw new AppError(400, 'The checkout session names no buyer or token bundle of this service');
    }
    return this.orm.em.fork().transactional(async (em) => {
      const inserted = await em.execute<{ event_id: string }[]>(
        `insert into "processed_stripe_event" ("event_id", "type") values (?, ?) on conflict do nothing returning "event_id"`,
        [event.id, event.type],
      );
      if (inserted.length === 0) return false;
      await this.options.credit({
        userUuid,
        amount: tokens,
        reason: 'purchase',
        reference: `stripe:${session.id}`,
        idempotencyKey: `stripe-event:${event.id}`,
      });
      return true;
    });
  }
}
