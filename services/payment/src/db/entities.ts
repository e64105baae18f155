import { defineEntity, p } from '@mikro-orm/postgresql';

// The tables are read and written with SQL (store.ts); these definitions name
// them for MikroORM.

/** `product`: what is sold (one_time), and the tokens a purchase credits. */
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
    tokens: p.bigint('number'),
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
