import { Migration20261203000000_products } from './Migration20261203000000_products.js';

/** Every migration of the payment service, oldest first. */
export const migrations = [{ name: 'Migration20261203000000_products', class: Migration20261203000000_products }];
