import { Migration20261121000000_user_accounts } from './Migration20261121000000_user_accounts.js';

/** Every migration of the user service, oldest first. */
export const migrations = [{ name: 'Migration20261121000000_user_accounts', class: Migration20261121000000_user_accounts }];
