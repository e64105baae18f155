import { defineEntity, p } from '@mikro-orm/postgresql';

// The tables are read and written with SQL (store.ts); these definitions name
// them for MikroORM.

/** `product`: what is sold: one_time (the tokens a purchase credits) or recurring (an interval and the level it gives). */
export const ProductEntity = defineEntity({
  name: 'Product',
  tableName: 'product',
  properties: {
    id: p.uuid().primary(),
    name: p.string(),
    description: p.string(),
    paymentType: p.string(),
    price: p.bigint('number'),
    currency: p.string(),
    tokens: p.bigint('number').nullable(),
    interval: p.string().nullable(),
    level: p.string().nullable(),
    appleProductId: p.string().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

/** `processed_stripe_event`: each Stripe event handled, once. */
export const ProcessedStripeEventEntity = defineEntity({
  name: 'ProcessedStripeEvent',
  tableName: 'processed_stripe_event',
  properties: {
    eventId: p.string().primary(),
    type: p.string(),
    processedAt: p.datetime(),
  },
});

/** `stripe_customer`: each user's Stripe customer, for the billing portal. */
export const StripeCustomerEntity = defineEntity({
  name: 'StripeCustomer',
  tableName: 'stripe_customer',
  properties: {
    userUuid: p.uuid().primary(),
    customerId: p.string().unique(),
    createdAt: p.datetime(),
  },
});

/** `subscription`: a subscription kept from Stripe's or Apple's notifications. */
export const SubscriptionEntity = defineEntity({
  name: 'Subscription',
  tableName: 'subscription',
  properties: {
    id: p.uuid().primary(),
    provider: p.string(),
    providerSubscriptionId: p.string(),
    userUuid: p.uuid(),
    productId: p.uuid().nullable(),
    level: p.string(),
    status: p.string(),
    region: p.string(),
    customerId: p.string().nullable(),
    cancelAtPeriodEnd: p.boolean(),
    startedAt: p.datetime(),
    currentPeriodStart: p.datetime().nullable(),
    currentPeriodEnd: p.datetime().nullable(),
    endedAt: p.datetime().nullable(),
    sourceUpdatedAt: p.datetime(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

/** `processed_apple_notification`: each App Store notification handled, once. */
export const ProcessedAppleNotificationEntity = defineEntity({
  name: 'ProcessedAppleNotification',
  tableName: 'processed_apple_notification',
  properties: {
    notificationUuid: p.uuid().primary(),
    type: p.string(),
    processedAt: p.datetime(),
  },
});

/** `stripe_purchase`: a paid token checkout by its PaymentIntent, and the tokens its refunds claimed back so far. */
export const StripePurchaseEntity = defineEntity({
  name: 'StripePurchase',
  tableName: 'stripe_purchase',
  properties: {
    paymentIntentId: p.string().primary(),
    checkoutSessionId: p.string(),
    userUuid: p.uuid(),
    productId: p.uuid().nullable(),
    tokens: p.bigint('number'),
    refundedTokens: p.bigint('number'),
    createdAt: p.datetime(),
  },
});

/** `stripe_refund`: each charge.refunded handled: the tokens due, taken back and short (already spent). */
export const StripeRefundEntity = defineEntity({
  name: 'StripeRefund',
  tableName: 'stripe_refund',
  properties: {
    eventId: p.string().primary(),
    paymentIntentId: p.string(),
    chargeId: p.string(),
    amountRefunded: p.bigint('number'),
    amount: p.bigint('number'),
    tokensDue: p.bigint('number'),
    tokensTaken: p.bigint('number'),
    tokensShort: p.bigint('number'),
    createdAt: p.datetime(),
  },
});
