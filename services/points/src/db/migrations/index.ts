import { Migration20261202000000_token_ledger } from './Migration20261202000000_token_ledger.js';

/** Every migration of the points service, oldest first. */
export const migrations = [{ name: 'Migration20261202000000_token_ledger', class: Migration20261202000000_token_ledger }];
