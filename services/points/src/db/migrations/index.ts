import { Migration20261202000000_token_ledger } from './Migration20261202000000_token_ledger.js';
import { Migration20261203000000_consumables } from './Migration20261203000000_consumables.js';
import { Migration20261203000001_token_bundles } from './Migration20261203000001_token_bundles.js';
import { Migration20261204000000_seasons } from './Migration20261204000000_seasons.js';
import { Migration20261204000001_points } from './Migration20261204000001_points.js';
import { Migration20261204000002_avatars } from './Migration20261204000002_avatars.js';
import { Migration20261205000000_shop_files } from './Migration20261205000000_shop_files.js';
import { Migration20261206000000_play_listens } from './Migration20261206000000_play_listens.js';
import { Migration20261207000000_token_debits } from './Migration20261207000000_token_debits.js';
import { Migration20261208000000_token_key_transactions } from './Migration20261208000000_token_key_transactions.js';

/** Every migration of the points service, oldest first. */
export const migrations = [
  { name: 'Migration20261202000000_token_ledger', class: Migration20261202000000_token_ledger },
  { name: 'Migration20261203000000_consumables', class: Migration20261203000000_consumables },
  { name: 'Migration20261203000001_token_bundles', class: Migration20261203000001_token_bundles },
  { name: 'Migration20261204000000_seasons', class: Migration20261204000000_seasons },
  { name: 'Migration20261204000001_points', class: Migration20261204000001_points },
  { name: 'Migration20261204000002_avatars', class: Migration20261204000002_avatars },
  { name: 'Migration20261205000000_shop_files', class: Migration20261205000000_shop_files },
  { name: 'Migration20261206000000_play_listens', class: Migration20261206000000_play_listens },
  { name: 'Migration20261207000000_token_debits', class: Migration20261207000000_token_debits },
  { name: 'Migration20261208000000_token_key_transactions', class: Migration20261208000000_token_key_transactions },
];
