import { Migration20261206000000_audit } from './Migration20261206000000_audit.js';
import { Migration20261226120000_play_seen_pruning } from './Migration20261226120000_play_seen_pruning.js';

/** Every migration of the audit service, oldest first. */
export const migrations = [
  { name: 'Migration20261206000000_audit', class: Migration20261206000000_audit },
  { name: 'Migration20261226120000_play_seen_pruning', class: Migration20261226120000_play_seen_pruning },
];
