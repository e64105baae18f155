import { Migration20261206000000_audit } from './Migration20261206000000_audit.js';

/** Every migration of the audit service, oldest first. */
export const migrations = [{ name: 'Migration20261206000000_audit', class: Migration20261206000000_audit }];
