import { Migration20261203000000_products } from './Migration20261203000000_products.js';
import { Migration20261204000000_subscriptions } from './Migration20261204000000_subscriptions.js';
import { Migration20261207000000_stripe_refunds } from './Migration20261207000000_stripe_refunds.js';

/** Every migration of the payment service, oldest first. */
export const migrations = [
  { name: 'Migration20261203000000_products', class: Migration20261203000000_products },
  { name: 'Migration20261204000000_subscriptions', class: Migration20261204000000_subscriptions },
  { name: 'Migration20261207000000_stripe_refunds', class: Migration20261207000000_stripe_refunds },
];
