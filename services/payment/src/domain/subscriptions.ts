import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

export type Provider = 'stripe' | 'apple';

export interface Subscription {
  id: string;
  userUuid: string;
  provider: Provider;
  providerSubscriptionId: string;
  productId: string | null;
  level: string;
  status: string;
  active: boolean;
  region: string;
  cancelAtPeriodEnd: boolean;
  startedAt: Date;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  endedAt: Date | null;
  updatedAt: Date;
}

/** The statuses that give a subscription's level (Stripe's past_due still does while Stripe retries the payment). */
export const ACTIVE_STATUSES = ['active', 'trialing', 'past_due'];
/** A subscription whose period ended longer ago than this gives nothing, even when the notice that ends it never came. */
export const PERIOD_GRACE_MS = 24 * 60 * 60 * 1000;
/** Statuses of subscriptions that never started (never paid): not counted. */
const NEVER_STARTED = ['incomplete', 'incomplete_expired'];

/**
 * The order statuses follow within one subscription's life, to settle two
 * notifications with the same time: the later in this order wins (Stripe's
 * events carry whole seconds, and customer.subscription.created and
 * .updated often share one).
 */
const STATUS_ORDER: Record<string, number> = {
  incomplete: 0,
  trialing: 1,
  active: 2,
  past_due: 3,
  unpaid: 4,
  paused: 4,
  canceled: 5,
  incomplete_expired: 5,
  expired: 5,
  revoked: 6,
};
const rank = (status: string) => STATUS_ORDER[status] ?? 2;

/**
 * What a notification says of a subscription. Undefined fields are kept as
 * they are; `at` is the notification's time (a Stripe event's `created`, an
 * Apple notification's signedDate): an older one than the last applied
 * changes nothing. `fillIn` (Stripe's checkout.session.completed) makes the
 * subscription when it is not there yet and otherwise only fills in its
 * region and customer, whatever its time.
 */
export interface SubscriptionChange {
  provider: Provider;
  providerSubscriptionId: string;
  userUuid: string;
  at: Date;
  productId?: string | null;
  level?: string;
  status?: string;
  region?: string;
  customerId?: string;
  cancelAtPeriodEnd?: boolean;
  startedAt?: Date;
  currentPeriodStart?: Date | null;
  currentPeriodEnd?: Date | null;
  endedAt?: Date | null;
  /** The status when the subscription is new and the change names none. */
  statusWhenNew?: string;
  fillIn?: boolean;
}

interface SubscriptionRow {
  id: string;
  user_uuid: string;
  provider: Provider;
  provider_subscription_id: string;
  product_id: string | null;
  level: string;
  status: string;
  region: string;
  customer_id: string | null;
  cancel_at_period_end: boolean;
  started_at: Date;
  current_period_start: Date | null;
  current_period_end: Date | null;
  ended_at: Date | null;
  source_updated_at: Date;
  updated_at: Date;
}

const date = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

export function isActive(row: { status: string; currentPeriodEnd: Date | null }, now: Date): boolean {
  return (
    ACTIVE_STATUSES.includes(row.status) &&
    (row.currentPeriodEnd === null || row.currentPeriodEnd.getTime() > now.getTime() - PERIOD_GRACE_MS)
  );
}

function subscription(row: SubscriptionRow, now: Date): Subscription {
  const currentPeriodEnd = date(row.current_period_end);
  return {
    id: row.id,
    userUuid: row.user_uuid,
    provider: row.provider,
    providerSubscriptionId: row.provider_subscription_id,
    productId: row.product_id,
    level: row.level,
    status: row.status,
    active: isActive({ status: row.status, currentPeriodEnd }, now),
    region: row.region,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    startedAt: new Date(row.started_at),
    currentPeriodStart: date(row.current_period_start),
    currentPeriodEnd,
    endedAt: date(row.ended_at),
    updatedAt: new Date(row.updated_at),
  };
}

/**
 * Applies a notification's change to its subscription inside the caller's
 * transaction, under the subscription's row lock (a new one is inserted, and
 * a concurrent insert of the same one is waited for and then updated). True
 * when it changed something.
 */
export async function applySubscriptionChange(em: EntityManager, change: SubscriptionChange): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const [current] = await em.execute<SubscriptionRow[]>(
      `select * from "subscription" where "provider" = ? and "provider_subscription_id" = ? for update`,
      [change.provider, change.providerSubscriptionId],
    );
    if (!current) {
      const inserted = await em.execute<{ id: string }[]>(
        `insert into "subscription" ("id", "provider", "provider_subscription_id", "user_uuid", "product_id", "level", "status", "region",
           "customer_id", "cancel_at_period_end", "started_at", "current_period_start", "current_period_end", "ended_at",
           "source_updated_at", "created_at", "updated_at")
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now(), now())
         on conflict ("provider", "provider_subscription_id") do nothing returning "id"`,
        [
          randomUUID(),
          change.provider,
          change.providerSubscriptionId,
          change.userUuid,
          change.productId ?? null,
          change.level ?? '',
          change.status ?? change.statusWhenNew ?? 'active',
          change.region ?? '',
          change.customerId ?? null,
          change.cancelAtPeriodEnd ?? false,
          change.startedAt ?? change.at,
          change.currentPeriodStart ?? null,
          change.currentPeriodEnd ?? null,
          change.endedAt ?? null,
          change.at,
        ],
      );
      if (inserted.length > 0) return true;
      continue;
    }
    if (change.fillIn) {
      const filled = await em.execute<{ id: string }[]>(
        `update "subscription" set "region" = case when "region" = '' then ? else "region" end,
           "customer_id" = coalesce("customer_id", ?), "updated_at" = now()
         where "id" = ? and (("region" = '' and ? <> '') or ("customer_id" is null and ?::text is not null)) returning "id"`,
        [change.region ?? '', change.customerId ?? null, current.id, change.region ?? '', change.customerId ?? null],
      );
      return filled.length > 0;
    }
    const last = new Date(current.source_updated_at).getTime();
    const status = change.status ?? current.status;
    const newer = change.at.getTime() > last || (change.at.getTime() === last && rank(status) >= rank(current.status));
    if (!newer) return false;
    const keep = <T>(value: T | undefined, kept: T): T => (value === undefined ? kept : value);
    await em.execute(
      `update "subscription" set "user_uuid" = ?, "product_id" = ?, "level" = ?, "status" = ?, "region" = ?, "customer_id" = ?,
         "cancel_at_period_end" = ?, "started_at" = ?, "current_period_start" = ?, "current_period_end" = ?, "ended_at" = ?,
         "source_updated_at" = ?, "updated_at" = now()
       where "id" = ?`,
      [
        change.userUuid,
        keep(change.productId, current.product_id),
        change.level || current.level,
        status,
        change.region || current.region,
        change.customerId ?? current.customer_id,
        keep(change.cancelAtPeriodEnd, current.cancel_at_period_end),
        keep(change.startedAt, current.started_at),
        keep(change.currentPeriodStart, current.current_period_start),
        keep(change.currentPeriodEnd, current.current_period_end),
        keep(change.endedAt, current.ended_at),
        change.at,
        current.id,
      ],
    );
    return true;
  }
  throw new Error(`subscription ${change.provider}:${change.providerSubscriptionId} could be neither inserted nor found`);
}

/** The user behind a subscription already kept (a renewal that names no user). */
export async function subscriberOf(em: EntityManager, provider: Provider, providerSubscriptionId: string): Promise<string | undefined> {
  const [row] = await em.execute<{ user_uuid: string }[]>(
    `select "user_uuid" from "subscription" where "provider" = ? and "provider_subscription_id" = ?`,
    [provider, providerSubscriptionId],
  );
  return row?.user_uuid;
}

/** A user's subscriptions, newest first, and the one giving their level now (the one whose period ends last). */
export async function subscriptionsOf(
  em: EntityManager,
  userUuid: string,
  now: Date,
): Promise<{ subscriptions: Subscription[]; active: Subscription | undefined }> {
  const rows = await em.execute<SubscriptionRow[]>(
    `select * from "subscription" where "user_uuid" = ? order by "started_at" desc, "id" limit 100`,
    [userUuid],
  );
  const subscriptions = rows.map((row) => subscription(row, now));
  const active = subscriptions
    .filter((candidate) => candidate.active)
    .sort((a, b) => (b.currentPeriodEnd?.getTime() ?? Infinity) - (a.currentPeriodEnd?.getTime() ?? Infinity))[0];
  return { subscriptions, active };
}

/**
 * How many subscriptions were active at some time in [startDate, endDate]
 * (either end open): started by endDate and not ended before startDate,
 * leaving out those never paid; of one region and level when given.
 */
export async function countSubscriptions(
  em: EntityManager,
  query: { startDate?: Date; endDate?: Date; region?: string; level?: string },
): Promise<number> {
  const conditions = [`"status" not in (${NEVER_STARTED.map(() => '?').join(', ')})`];
  const params: unknown[] = [...NEVER_STARTED];
  if (query.endDate) {
    conditions.push(`"started_at" <= ?`);
    params.push(query.endDate);
  }
  if (query.startDate) {
    conditions.push(`("ended_at" is null or "ended_at" >= ?)`);
    params.push(query.startDate);
  }
  if (query.region) {
    conditions.push(`upper("region") = upper(?)`);
    params.push(query.region);
  }
  if (query.level) {
    conditions.push(`"level" = ?`);
    params.push(query.level);
  }
  const [row] = await em.execute<{ count: string }[]>(
    `select count(*) as "count" from "subscription" where ${conditions.join(' and ')}`,
    params,
  );
  return Number(row?.count ?? 0);
}
